// end-at-eof.cu: the END marker is the last line, without a newline.
int answer(void)
{
    // BEGIN SOLUTION
    // TODO: return the answer.
    // STUB: return -1; }
    return 42; }
    // END SOLUTION