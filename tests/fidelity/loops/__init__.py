"""The public whole-loop corpus: tools and questions as public tutorials, docs and reference servers define them."""
