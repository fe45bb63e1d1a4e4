"""What a run costs: prices, token counts and the tabular accounting."""
