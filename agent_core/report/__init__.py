"""Reports on runs: charts, comparisons and explanations."""
