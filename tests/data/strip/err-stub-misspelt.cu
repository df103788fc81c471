// strip fixture: error at line 6: malformed stub
extern "C" cudaError_t launch_scale(float *x, int n)
{
    // BEGIN SOLUTION
    // TODO: launch scale with one thread per element.
    //STUB: return MW_NOT_IMPLEMENTED;
    scale<<<(n + 255) / 256, 256>>>(x, n);
    return cudaGetLastError();
    // END SOLUTION
}
