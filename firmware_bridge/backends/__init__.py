"""LED strip backends. Each module is imported only when its backend is opened."""
