"""The language of what people read: gettext catalogs, numbers and dates, the game's words."""
