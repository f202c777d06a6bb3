"""``schocken_host.i18n`` as the browser's check serves it (at /py/schocken_host/i18n.py) in place of the
host's module, which gathers every text and uses what MicroPython lacks (``re.escape``, set operations on
dict keys). ``table/state.py`` needs only ``LocalizedValueError``: here it is a ValueError whose text is the
English text of its key (texts/input_errors.py, served as it is), with ``key`` and ``fields`` kept for the
check's report. Runs on MicroPython and CPython (tests/test_web_check.py imports it on both)."""

from schocken_host.texts.input_errors import TEXTS


class LocalizedValueError(ValueError):
    def __init__(self, key, **fields):
        self.key = key
        self.fields = fields
        try:
            text = TEXTS[key][1].format(**fields)
        except (KeyError, IndexError, ValueError):
            text = "%s %r" % (key, fields)
        super().__init__(text)


LocalizedError = LocalizedValueError
