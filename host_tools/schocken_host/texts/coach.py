"""Texts of the coach (`schocken play --coach`, table/coach.py) on the scoreboard; the page's words are
"web.page_coach_*" in texts/web.py."""

TEXTS = {
    "coach.head": ("Tipp für {name}: ", "Coach for {name}: "),
    "coach.chance": ("{chance} Chance, jeden Wurf vor dir zu schlagen",
                     "{chance} chance to beat every throw before yours"),
    "coach.chance_again": ("{chance} Chance, jeden Wurf vor dir zu schlagen, wenn du nochmal wirfst",
                           "{chance} chance to beat every throw before yours if you throw again"),
    "coach.opener": ("du eröffnest, kein Wurf zu schlagen", "you open, no throw to beat"),
    "coach.expected": ("erwartet {deckel} Deckel", "expected {deckel} Deckel"),
    "coach.aside": ("mit {aside} beiseite", "with {aside} set aside"),
    "coach.stand": ("stehen lohnt ab {label}", "standing pays from {label} up"),
    "coach.last": ("letzter Wurf: nichts mehr zu entscheiden", "last throw: nothing left to decide"),
    "coach.pending": ("rechnet …", "computing …"),
    "coach.error": ("kein Tipp ({error})", "no advice ({error})"),
    "coach.failed": ("Tipp: Rechnung fehlgeschlagen ({error}); das Spiel geht weiter.",
                     "Coach: computation failed ({error}); the game goes on."),
}
