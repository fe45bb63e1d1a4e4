"""The class server in the UI: who is at this browser, what they may spend, and the key they may use."""
