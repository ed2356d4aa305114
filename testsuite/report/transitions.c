/* The HTML report's loop transitions (run_transitions.py): built with
   k=2 at -O0 and run with no arguments.

   grid's inner loop (header: its condition, line 18) has 18 2-iteration
   transitions: 6 paths end at its latch (s += ...; c++: from entry, from
   the outer header or from its own header, then odd or even) and 3 start
   at its header (even, odd, leave). The outer loop (header line 17) has
   12: 3 paths end at its latch (r++: from entry, the outer or the inner
   header) and 4 start at its header (leave, or on into the inner loop's
   3). grid(2, 2) runs the paths
     entry-even, inner-odd, inner-leave, outer-odd, inner-even, inner-leave,
     outer-leave
   and grid(1, 1) entry-even, inner-leave, outer-leave: inner 5 of 18
   transitions tested, outer 2 of 12, (inner-leave, outer-leave) twice. */
int grid(int rows, int cols) {
  int s = 0;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      if ((r ^ c) & 1)
        s += r;
      else
        s += c;
  return s;
}

int main(void) {
  return grid(2, 2) + grid(1, 1) == 12345;
}
