"""The notes and help lines of the add-on's widgets: grey, to stand apart from the
controls, and still readable -- a contrast of at least 4.5 : 1 against the widget's
background (WCAG's level AA for text), whatever the palette.  Plain Qt."""
from AnyQt.QtGui import QColor, QPalette

#: the least contrast of a note's text against its background
MIN_CONTRAST = 4.5
#: the contrast a note's grey is chosen for: a margin above MIN_CONTRAST for the
#: rounding of colours and the antialiasing of thin glyphs
NOTE_CONTRAST = 5.5


def relative_luminance(color):
    """The relative luminance of a ``QColor`` (WCAG 2's definition)."""
    def linear(channel):
        channel /= 255
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4
    return (0.2126 * linear(color.red()) + 0.7152 * linear(color.green())
            + 0.0722 * linear(color.blue()))


def contrast_ratio(first, second):
    """The contrast ratio of two ``QColor``s, from 1 (the same) to 21 (black on white)."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)),
                             reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def note_color(palette):
    """The grey of a note on ``palette``'s window: the palette's text colour blended
    towards the window's as far as keeps NOTE_CONTRAST (the text colour itself if even
    it has less)."""
    text, window = palette.color(QPalette.WindowText), palette.color(QPalette.Window)
    chosen = QColor(text)
    for step in range(1, 20):
        share = step / 20  # of the window's colour in the blend
        blend = QColor(*(round(a * (1 - share) + b * share) for a, b in (
            (text.red(), window.red()), (text.green(), window.green()),
            (text.blue(), window.blue()))))
        if contrast_ratio(blend, window) < NOTE_CONTRAST:
            break
        chosen = blend
    return chosen


def style_note(label):
    """Give ``label`` (a QLabel of a note or help line) the :func:`note_color`."""
    palette = label.palette()
    palette.setColor(QPalette.WindowText, note_color(palette))
    label.setPalette(palette)
    return label
