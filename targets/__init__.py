"""Where compiled code goes: the PTX target (`-t ptx`), ptxas, and the CUDA runtime with its cubin cache."""
