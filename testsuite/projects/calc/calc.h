/* calc: a small calculator, the project the pathcov demo profiles. */
#ifndef CALC_H
#define CALC_H

enum token_kind { TOK_NUMBER, TOK_PLUS, TOK_MINUS, TOK_STAR, TOK_SLASH,
                  TOK_LPAREN, TOK_RPAREN, TOK_END, TOK_ERROR };

struct token {
  enum token_kind kind;
  long value;
};

struct lexer {
  const char *text;
  int pos;
};

struct token next_token(struct lexer *lx);

/* Evaluates `text`; returns 0 and sets *result, or -1 and sets *error. */
int evaluate(const char *text, long *result, const char **error);

#endif
