"""Everything that touches a pin: the LED strip under the track and the table's buttons.

Knows LED indexes, hole ids of a board profile and button names, nothing of the rules, and
imports nothing of `companion`. Importing this package is cheap: the modules are loaded when used.

- `firmware_bridge.strip`: the `LedStrip` interface and `open_strip(config)`, which picks a
  backend (`ws281x`, `pi5`, `sim`, `none`) the way gpiozero picks its pin factory.
- `firmware_bridge.config`: `LedConfig`, from code or from `DOG_LED*` environment variables.
- `firmware_bridge.power`: gamma table and current budget.
- `firmware_bridge.effects`: what the LEDs show (targets, errors, turn, …) as frames and scenes.
- `firmware_bridge.animator`: the thread that plays a scene on a strip at up to 30 fps.
- `firmware_bridge.buttons`: gpiozero buttons (confirm, undo, cannot play, next) as events.
- `firmware_bridge.cli`: `dog-companion leds test | show | off`.
"""
