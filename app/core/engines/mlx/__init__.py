"""Apple MLX through mlx-vlm / mlx-lm: the engine, drafter pairing, the model-free loop, stream helpers
and the converter that builds small MLX checkpoints."""
