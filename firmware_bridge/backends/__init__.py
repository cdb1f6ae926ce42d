"""LED strip backends, one module each, named in `firmware_bridge.strip.BACKEND_CLASSES`.

A backend module is imported only when its backend is opened; each imports `LedStrip` from
`firmware_bridge.strip`, which imports none of them.
"""
