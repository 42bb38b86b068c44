#include "sn_test.h"
int main(void) { return 0; }
