// Macros whose strings and comments only mention a launch, __shared__ or asm
// are left alone.
#define NOTE "a <<<launch>>> and __shared__ in a string" /* and asm in a comment */
#define TILE 32 // __shared__ asm <<<
__global__ void k(int *x) { x[0] = TILE; }
