#include "PathMiss.h"

#include "RuntimeDecls.h"

#include "ssa.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace pathcov {

namespace {

// An asm statement's operands, named "%N" in its template as they are
// added: the outputs first, as GCC numbers them.
class AsmOperands {
public:
  std::string output(const char *constraint, tree value) {
    gcc_assert(!inputs_);
    return add(outputs_, constraint, value);
  }
  std::string input(const char *constraint, tree value) {
    return add(inputs_, constraint, value);
  }
  // A register the asm writes, defined by it.
  std::string scratch() {
    tree name = make_temp_ssa_name(pathType(), nullptr, "pathcov_slot");
    defined_.push_back(name);
    return output("=&r", name);
  }

  gasm *build(const std::string &text, bool inlineSize = false) {
    vec<tree, va_gc> *clobbers = nullptr;
    vec_safe_push(clobbers, build_tree_list(NULL_TREE, build_string(3, "cc")));
    gasm *stmt = gimple_build_asm_vec(ggc_strdup(text.c_str()), inputs_,
                                      outputs_, clobbers, nullptr);
    gimple_asm_set_volatile(stmt, true);
    gimple_asm_set_inline(stmt, inlineSize);
    for (tree name : defined_)
      SSA_NAME_DEF_STMT(name) = stmt;
    return stmt;
  }

private:
  std::string add(vec<tree, va_gc> *&to, const char *constraint, tree value) {
    vec_safe_push(to, build_tree_list(
                          build_tree_list(NULL_TREE, build_string(strlen(constraint) + 1,
                                                                  constraint)),
                          value));
    return "%" + std::to_string(count_++);
  }

  vec<tree, va_gc> *outputs_ = nullptr, *inputs_ = nullptr;
  std::vector<tree> defined_;
  unsigned count_ = 0;
};

// The call to the runtime (runtime/src/path_miss_x86_64.S): stepping over
// the red zone keeps a leaf function's data below %rsp intact. The id is
// `value`, pushed, plus `offset`; the descriptor (`fnOp`, an "i" operand)
// and the offset are data after the call, behind a 2-byte jump over them
// (`jmp .+10`, spelled as bytes so that its size is fixed), where the stub
// reads them: the call site loads no address and needs no register. The
// stub's `ret $136` pops the value and steps back.
std::string callStub(const char *stub, const std::string &value,
                     const std::string &offset, const std::string &fnOp) {
  return "lea -128(%%rsp), %%rsp\n\tpush " + value + "\n\tcall " + stub +
         "\n\t.byte 0xeb, 8\n\t.long %c" + fnOp.substr(1) + " - ., " + offset;
}

// An "i" operand's text as a constant (`%cN`).
std::string constantText(const std::string &op) { return "%c" + op.substr(1); }

std::string countSlot(bool atomic, const std::string &count) {
  return std::string("\n\tjmp 2f\n1:\n\t") + (atomic ? "lock " : "") +
         "addq $1, " + count + "\n2:";
}

// seen[id], and the id as a value plus a constant offset. Where id is a
// register plus a constant, the word is `(seen + constant)[register]`: the
// constant goes into the address's displacement, where the compiler would
// compute the sum into a register of its own (a loop's residual path paid
// that `lea` on every iteration).
struct SeenWord {
  tree ref;
  tree value;
  int64_t offset;
};

SeenWord seenWord(tree seen, tree id) {
  tree element = TREE_TYPE(TREE_TYPE(seen));
  gassign *def = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(id));
  tree constant = def && gimple_assign_rhs_code(def) == PLUS_EXPR &&
                          TREE_CODE(gimple_assign_rhs2(def)) == INTEGER_CST
                      ? fold_convert(ssizetype, gimple_assign_rhs2(def))
                      : NULL_TREE;
  // A displacement is 32 bits: a larger constant (a function of at most
  // kSeenWordLimit paths has none so far) keeps the plain index.
  if (constant && tree_fits_shwi_p(constant) &&
      std::abs(tree_to_shwi(constant)) < (HOST_WIDE_INT(1) << 24)) {
    const HOST_WIDE_INT offset =
        tree_to_shwi(constant) * int_size_in_bytes(element);
    tree shifted = build2(MEM_REF, build_array_type(element, NULL_TREE),
                          build_fold_addr_expr(seen),
                          build_int_cst(build_pointer_type(TREE_TYPE(seen)), offset));
    tree value = gimple_assign_rhs1(def);
    return {build4(ARRAY_REF, element, shifted, value, NULL_TREE, NULL_TREE),
            value, tree_to_shwi(constant)};
  }
  return {build4(ARRAY_REF, element, seen, id, NULL_TREE, NULL_TREE), id, 0};
}

// With a seen word per path (abi.h): `[lock] subq $1, word; jns 1f; call`.
// The word is a memory operand, addressed as the compiler likes: it folds
// the id's constant offsets into the displacement (a loop's path register
// is often the id plus a constant), and the call passes the register and
// the offset apart (a constant id is pushed as an immediate): the miss
// takes no register of its own. A repeated residual path costs the
// subtraction and the branch.
// Its operands, in this order, are what buildWordCallAsm reads back.
gasm *buildWordMissAsm(const MissTables &tables, tree id) {
  AsmOperands asmOps;
  const SeenWord word = seenWord(tables.seen, id);
  const std::string wordOp = asmOps.output("+m", word.ref);
  const std::string valueOp = asmOps.input("re", word.value);
  const std::string fnOp =
      asmOps.input("i", build_fold_addr_expr(tables.descriptor));
  const std::string offsetOp =
      asmOps.input("i", build_int_cst(ssizetype, word.offset));
  return asmOps.build(std::string(tables.atomic ? "lock " : "") + "subq $1, " +
                          wordOp + "\n\tjns 1f\n\t" +
                          callStub(kResidualWordStub, valueOp,
                                   constantText(offsetOp), fnOp) +
                          "\n1:",
                      true);
}

const char kWordMissStart[] = "subq $1, ";

} // namespace

bool isWordMissAsm(const gimple *stmt) {
  const gasm *miss = dyn_cast<const gasm *>(stmt);
  return miss && strncmp(gimple_asm_string(miss), kWordMissStart,
                         sizeof kWordMissStart - 1) == 0 &&
         strstr(gimple_asm_string(miss), kResidualWordStub) &&
         gimple_asm_noutputs(miss) == 1 && gimple_asm_ninputs(miss) == 3;
}

tree wordOfMiss(const gasm *miss) {
  return TREE_VALUE(gimple_asm_output_op(miss, 0));
}

gasm *buildWordCountAsm(const gasm *miss, tree negative) {
  AsmOperands asmOps;
  const std::string wordOp = asmOps.output("+m", unshare_expr(wordOfMiss(miss)));
  asmOps.output("=@ccs", negative);
  gasm *count = asmOps.build("subq $1, " + wordOp, true);
  SSA_NAME_DEF_STMT(negative) = count;
  return count;
}

gasm *buildWordCallAsm(const gasm *miss) {
  AsmOperands asmOps;
  // The runtime writes the word: an in-out operand, as in the miss.
  asmOps.output("+m", unshare_expr(wordOfMiss(miss)));
  const std::string valueOp = asmOps.input("re", TREE_VALUE(gimple_asm_input_op(miss, 0)));
  const std::string fnOp = asmOps.input("i", TREE_VALUE(gimple_asm_input_op(miss, 1)));
  const std::string offsetOp = asmOps.input("i", TREE_VALUE(gimple_asm_input_op(miss, 2)));
  return asmOps.build(callStub(kResidualWordStub, valueOp, constantText(offsetOp), fnOp),
                      true);
}

// One asm statement, not the three blocks of a GIMPLE version, because the
// optimizers' time grows with blocks (bzip2's decompress.c compiled in
// 1.33 s with them, 0.79 s so). The runtime claims the free slot of a path
// it has recorded, so a residual path calls it once, then counts like a
// tested one (a `lock` add with atomic); where every path has a word of
// its own, it counts every run (buildWordMissAsm). The
// call goes to a stub that preserves every register
// (runtime/src/path_miss_x86_64.S), its arguments on the stack: to the
// register allocator it is no call at all and ties no value to a register,
// so the function's hot paths keep their values in caller-saved registers
// and save none. A claimed slot's count comes last, so that a repeated
// residual path falls through the asm after six instructions. The slots are an
// in-out memory operand: the asm reads the tag afresh every time, and the
// compiler keeps nothing of them across it; their address is an input,
// which a loop keeps in a register. Without seen slots, the call alone.
gasm *buildMissAsm(const MissTables &tables, tree id) {
  if (tables.seenWords)
    return buildWordMissAsm(tables, id);
  AsmOperands asmOps;
  // abi.h: a record-mode tag is the id itself, a residual one id + 1.
  const bool tagIsId = tables.stub == kRecordMissStub;
  // The slot's index and, in residual mode, the tag it should hold.
  const std::string scratch = tables.seen ? asmOps.scratch() : "";
  const std::string tag = tables.seen && !tagIsId ? asmOps.scratch() : "";
  if (tables.seen)
    asmOps.output("+m", tables.seen);
  const std::string idOp = asmOps.input(tables.seen ? "r" : "re", id);
  std::string text, tail;
  if (tables.seen) {
    const std::string seenOp =
        asmOps.input("r", build_fold_addr_expr(tables.seen));
    // The slot k's tag at seen[k], its count at seen[seenSlots + k].
    const std::string tagAt = "(" + seenOp + "," + scratch + ",8)";
    // 65536 slots index by the id's low half, one movzwl.
    text = tables.seenSlots == 65536
               ? "movzwl %w" + idOp.substr(1) + ", %k" + scratch.substr(1)
               : "movq " + idOp + ", " + scratch + "\n\tandl $" +
                     std::to_string(tables.seenSlots - 1) + ", %k" +
                     scratch.substr(1);
    text += tagIsId ? "\n\tcmpq " + idOp + ", " + tagAt
                    : "\n\tleaq 1(" + idOp + "), " + tag + "\n\tcmpq " + tag +
                          ", " + tagAt;
    text += "\n\tje 1f\n\t";
    tail = countSlot(tables.atomic, std::to_string(8 * tables.seenSlots) + tagAt);
  }
  const std::string fnOp =
      asmOps.input("i", build_fold_addr_expr(tables.descriptor));
  return asmOps.build(text + callStub(tables.stub, idOp, "0", fnOp) + tail, true);
}

gasm *buildHistoryAsm(tree descriptor, tree id) {
  AsmOperands asmOps;
  const std::string record = asmOps.scratch();
  const std::string offset = asmOps.scratch();
  const std::string idOp = asmOps.input("re", id);
  const std::string fnOp = asmOps.input("i", build_fold_addr_expr(descriptor));
  // The runtime is in the module: an executable's code (PIE or not) reads
  // the thread-local pointer at a constant offset from %fs (local exec),
  // a shared library's through the GOT (initial exec).
  const std::string load =
      flag_shlib ? "movq __pathcov_history_current@gottpoff(%%rip), " + record +
                       "\n\tmovq %%fs:(" + record + "), " + record
                 : "movq %%fs:__pathcov_history_current@tpoff, " + record;
  const std::string entry = std::to_string(kHistoryRingOffset) + "(" + record +
                            "," + offset + ")";
  return asmOps.build(
      load + "\n\tmovq (" + record + "), " + offset + "\n\taddq $16, (" +
          record + ")\n\tandq " + std::to_string(kHistoryMaskOffset) + "(" +
          record + "), " + offset + "\n\tjnz 1f\n\t" +
          callStub(kHistoryStub, idOp, "0", fnOp) + "\n\tjmp 2f\n1:\n\tleaq " +
          entry + ", " + record + "\n\tmovq " + idOp + ", 8(" + record +
          ")\n\tleaq %c" + fnOp.substr(1) + "(%%rip), " + offset +
          "\n\tmovq " + offset + ", (" + record + ")\n2:",
      true);
}

namespace {
const char kCountStart[] = "addq $";
const char kAtomicCountStart[] = "lock addq $";
const char kCountEnd[] = ", %0";

std::string countText(bool atomic, uint64_t by) {
  return std::string(atomic ? kAtomicCountStart : kCountStart) +
         std::to_string(by) + kCountEnd;
}
} // namespace

gasm *buildCountAsm(tree counter, bool atomic) {
  AsmOperands asmOps;
  asmOps.output("+m", counter);
  return asmOps.build(countText(atomic, 1), true);
}

bool isCountAsm(const gimple *stmt, uint64_t &by) {
  const gasm *count = dyn_cast<const gasm *>(stmt);
  if (!count || gimple_asm_noutputs(count) != 1 || gimple_asm_ninputs(count) != 0)
    return false;
  const char *text = gimple_asm_string(count);
  for (const char *start : {kCountStart, kAtomicCountStart})
    if (strncmp(text, start, strlen(start)) == 0) {
      char *end = nullptr;
      by = strtoull(text + strlen(start), &end, 10);
      return by != 0 && strcmp(end, kCountEnd) == 0;
    }
  return false;
}

void setCountBy(gasm *stmt, uint64_t by) {
  const bool atomic = strncmp(gimple_asm_string(stmt), kAtomicCountStart,
                              strlen(kAtomicCountStart)) == 0;
  // An immediate is 32 bits, sign-extended.
  gcc_assert(by <= INT32_MAX);
  stmt->string = ggc_strdup(countText(atomic, by).c_str());
}

} // namespace pathcov
