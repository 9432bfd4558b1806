# Servo outputs: 13 on the Pico's own PWM pins (one carriage per rod) or 52 through four
# PCA9685 boards on I2C (one servo per bead). Both take pulse widths in microseconds.

PERIOD_US = 20000          # 50 Hz, what hobby servos expect
PCA_OSCILLATOR = 25000000
PCA_MODE1 = 0x00
PCA_PRESCALE = 0xFE
PCA_LED0 = 0x06
PCA_CHANNELS = 16


class PwmServos:
    def __init__(self, machine, pins):
        self.pwms = []
        for pin in pins:
            pwm = machine.PWM(machine.Pin(pin))
            pwm.freq(1000000 // PERIOD_US)
            self.pwms.append(pwm)
        self.count = len(self.pwms)

    def write(self, index, us):
        self.pwms[index].duty_ns(us * 1000)


class Pca9685Servos:
    def __init__(self, i2c, addresses, count, sleep_ms):
        if count > len(addresses) * PCA_CHANNELS:
            raise ValueError("%d servos need %d PCA9685 boards" % (count, -(-count // PCA_CHANNELS)))
        self.i2c = i2c
        self.addresses = addresses
        self.count = count
        prescale = int(PCA_OSCILLATOR / (4096 * (1000000 / PERIOD_US)) + 0.5) - 1
        for address in addresses:
            # The prescaler can only be written while the oscillator sleeps.
            i2c.writeto_mem(address, PCA_MODE1, bytes([0x10]))
            i2c.writeto_mem(address, PCA_PRESCALE, bytes([prescale]))
            i2c.writeto_mem(address, PCA_MODE1, bytes([0x20]))      # wake, auto-increment
            sleep_ms(1)
            i2c.writeto_mem(address, PCA_MODE1, bytes([0xA0]))      # restart PWM channels

    def write(self, index, us):
        address = self.addresses[index // PCA_CHANNELS]
        channel = index % PCA_CHANNELS
        # The nearest of the 4096 steps in a period: rounding down would stand a servo short.
        ticks = min(4095, (us * 4096 + PERIOD_US // 2) // PERIOD_US)
        self.i2c.writeto_mem(address, PCA_LED0 + 4 * channel, bytes([0, 0, ticks & 0xFF, ticks >> 8]))


def make_servos(machine, config, sleep_ms):
    driver = config.get("driver", "pca9685")
    if driver == "pwm":
        return PwmServos(machine, config.get("pins", list(range(2, 15))))
    if driver == "pca9685":
        bus = config.get("i2c", {})
        i2c = machine.I2C(bus.get("id", 0), sda=machine.Pin(bus.get("sda", 4)),
                          scl=machine.Pin(bus.get("scl", 5)), freq=bus.get("freq", 400000))
        return Pca9685Servos(i2c, config.get("addresses", [0x40, 0x41, 0x42, 0x43]),
                             config.get("servos", 52), sleep_ms)
    raise ValueError("driver %r is not pwm or pca9685" % driver)
