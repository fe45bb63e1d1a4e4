"""Ways of learning the loop: predict-then-reveal, you-are-the-model, you-are-the-loop and checked exercises."""
