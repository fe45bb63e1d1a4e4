"""How the simulated model reads text: languages, words and meanings, values, numbers, cities, results."""
