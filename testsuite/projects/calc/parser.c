/* Recursive descent: expr = term {(+|-) term}; term = factor {(*|/) factor};
 * factor = number | -factor | ( expr ). */
#include "calc.h"

#include <setjmp.h>

struct parser {
  struct lexer lx;
  struct token tok;
  const char *error;
  jmp_buf fail;
};

static void advance(struct parser *p) { p->tok = next_token(&p->lx); }

static void fail(struct parser *p, const char *why) {
  p->error = why;
  longjmp(p->fail, 1);
}

static long expr(struct parser *p);

static long factor(struct parser *p) {
  if (p->tok.kind == TOK_NUMBER) {
    long v = p->tok.value;
    advance(p);
    return v;
  }
  if (p->tok.kind == TOK_MINUS) {
    advance(p);
    return -factor(p);
  }
  if (p->tok.kind == TOK_LPAREN) {
    advance(p);
    long v = expr(p);
    if (p->tok.kind != TOK_RPAREN)
      fail(p, "expected ')'");
    advance(p);
    return v;
  }
  fail(p, "expected a number");
  return 0;
}

static long term(struct parser *p) {
  long v = factor(p);
  while (p->tok.kind == TOK_STAR || p->tok.kind == TOK_SLASH) {
    enum token_kind op = p->tok.kind;
    advance(p);
    long rhs = factor(p);
    if (op == TOK_STAR)
      v *= rhs;
    else if (rhs == 0)
      fail(p, "division by zero");
    else
      v /= rhs;
  }
  return v;
}

static long expr(struct parser *p) {
  long v = term(p);
  while (p->tok.kind == TOK_PLUS || p->tok.kind == TOK_MINUS) {
    enum token_kind op = p->tok.kind;
    advance(p);
    long rhs = term(p);
    v = op == TOK_PLUS ? v + rhs : v - rhs;
  }
  return v;
}

int evaluate(const char *text, long *result, const char **error) {
  struct parser p = {{text, 0}, {TOK_END, 0}, 0, {{0}}};
  if (setjmp(p.fail)) {
    *error = p.error;
    return -1;
  }
  advance(&p);
  long v = expr(&p);
  if (p.tok.kind != TOK_END)
    fail(&p, "unexpected input after the expression");
  *result = v;
  return 0;
}
