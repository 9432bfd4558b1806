"""Training the learned reader (the `train` extra: PyTorch on the CPU)."""
