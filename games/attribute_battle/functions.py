"""The strategic function of each Attribute Battle skill and targeting rule (AdvGameBench App. B.3's functional
similarity compares the sets of functions two plans field). Read from Appendix A.3's skill tables; the names
of the functions are Arena's (the paper gives only "defensive formations, offensive pushes, …")."""

from __future__ import annotations

FUNCTIONS: dict[str, frozenset[str]] = {
    name: frozenset(functions)
    for name, functions in (
        ("flame_splash", {"damage", "damage over time"}),
        ("residual_warmth", {"empower"}),
        ("burst_flame_bomb", {"damage"}),
        ("flame_whirlwind", {"damage over time"}),
        ("magma_eruption", {"damage"}),
        ("hell_curtain", {"damage", "shield", "reflect"}),
        ("stream_pierce", {"damage", "stacking"}),
        ("water_barrier", {"shield", "stacking"}),
        ("whirlpool_strangle", {"damage"}),
        ("ice_branded", {"damage", "vulnerability"}),
        ("tsunami_ending", {"damage"}),
        ("abyss_resonance", {"damage", "shield"}),
        ("shadow_claw", {"damage", "healing"}),
        ("fear_whisper", {"weaken"}),
        ("soul_siphon", {"damage", "execute"}),
        ("night_ambush", {"damage", "vulnerability"}),
        ("final_announcment", {"damage", "execute"}),
        ("void_assimilation", {"damage", "pierce shields"}),
        ("bud_healing", {"healing"}),
        ("parasitic_seed", {"damage", "reflect"}),
        ("life_totem", {"healing"}),
        ("natural_purification", {"cleanse", "damage"}),
        ("forest_reincarnation", {"healing", "shield", "damage"}),
        ("poison_vine", {"damage over time"}),
        ("rock_armor", {"shield", "reflect"}),
        ("earth_shock", {"damage"}),
        ("granite_barrier", {"damage reduction"}),
        ("quicksand_trap", {"weaken", "damage"}),
        ("earth_pulse", {"shield"}),
        ("core_rebound", {"damage", "reflect"}),
        ("holy_glimmer", {"cleanse", "healing", "damage"}),
        ("faith_emblem", {"damage reduction", "reflect"}),
        ("divine_link", {"reflect"}),
        ("luminous_dispel", {"dispel", "weaken"}),
        ("angelic_sanctuary", {"damage reduction"}),
        ("divine_sword", {"damage", "empower"}),
        ("target:first", {"front first"}),
        ("target:lowest_hp", {"finish the weakest"}),
        ("target:highest_hp", {"break the strongest"}),
        ("target:element", {"elemental advantage"}),
    )
}


def strategic_functions(items: frozenset[str]) -> frozenset[str]:
    """The functions a plan fields: its skills ("Fire:1:flame_splash") and its targeting rule ("target:first");
    a character's element ("0:Fire") is no function of its own."""
    names = (item.rsplit(":", 1)[1] if item.count(":") == 2 else item for item in items)
    return frozenset().union(*(FUNCTIONS.get(name, ()) for name in names))
