#include "calc.h"

#include <ctype.h>

struct token next_token(struct lexer *lx) {
  struct token t = {TOK_ERROR, 0};
  while (isspace((unsigned char)lx->text[lx->pos]))
    lx->pos++;
  char c = lx->text[lx->pos];
  if (c == '\0') {
    t.kind = TOK_END;
    return t;
  }
  if (isdigit((unsigned char)c)) {
    t.kind = TOK_NUMBER;
    while (isdigit((unsigned char)lx->text[lx->pos]))
      t.value = t.value * 10 + (lx->text[lx->pos++] - '0');
    return t;
  }
  lx->pos++;
  switch (c) {
  case '+': t.kind = TOK_PLUS; break;
  case '-': t.kind = TOK_MINUS; break;
  case '*': t.kind = TOK_STAR; break;
  case '/': t.kind = TOK_SLASH; break;
  case '(': t.kind = TOK_LPAREN; break;
  case ')': t.kind = TOK_RPAREN; break;
  default: break;
  }
  return t;
}
