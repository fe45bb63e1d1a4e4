"""The wire: provider clients, captured HTTP attempts, API errors and the OpenAI form."""
