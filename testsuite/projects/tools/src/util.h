/* 1: more digits than spaces, 2: some spaces, 0: neither. */
int classify(const char *text);
