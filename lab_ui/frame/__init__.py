"""What every page shares: routing, startup, the draw queue, the sidebar, the URL, links."""
