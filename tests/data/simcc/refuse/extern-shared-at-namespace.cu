namespace ns {
extern __shared__ float dyn[];
}
