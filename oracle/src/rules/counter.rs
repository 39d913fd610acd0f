//! Countering a spell: it leaves the stack, unresolved, for its owner's graveyard (CR 701.6a),
//! unless a replacement effect (614.1a) makes something else happen instead.

use crate::cards::instructions::StaticAbility;
use crate::model::{Game, PlayerId, ZoneRef};

/// Whether a spell that a spell or ability controlled by `countering` would counter is exiled
/// instead (Guile, 614.1a). The replacement watches only its own controller's counters: a player
/// who controls a permanent with it changes what their own spells and abilities do, not what an
/// opponent's counterspell does to the spell it counters. A face-down permanent has no abilities
/// (708.2), so it replaces nothing. With several, one applying is enough: afterwards the spell is
/// no longer being countered, so the others have nothing left to replace (614.5).
pub fn exiled_instead_of_countered(game: &Game, countering: PlayerId) -> bool {
    game.zone(ZoneRef::Battlefield).iter().map(|&p| game.obj(p)).any(|o| {
        o.controller == countering
            && !o.face_down
            && o.def.face_slice().iter().any(|f| f.statics.contains(&StaticAbility::ExileInsteadOfCounteringMayPlay))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardPool;

    /// A game where Alice and Bob start with `battlefield` (YAML list entries).
    fn game(battlefield: &str) -> Game {
        let source = format!(
            "title: t\nrules: [\"614.1a\"]\nsource: {{kind: clause, reference: x}}\ndescription: x\n\
             players:\n  - name: Alice\n  - name: Bob\nbattlefield:\n{battlefield}steps: []\n\
             expect: {{outcomes: 1}}\n"
        );
        let pool = CardPool::bundled().expect("pool");
        crate::scenario::load_str("t", &source, &pool).expect("loads").setup.game
    }

    #[test]
    fn only_the_controller_of_guile_has_counters_replaced() {
        let g = game("  - {card: Guile, owner: Alice}\n");
        assert!(exiled_instead_of_countered(&g, 0));
        assert!(!exiled_instead_of_countered(&g, 1));
    }

    #[test]
    fn no_replacement_without_guile_or_face_down() {
        let g = game("  - {card: Grizzly Bears, owner: Alice}\n");
        assert!(!exiled_instead_of_countered(&g, 0));
        let g = game("  - {card: Guile, owner: Bob, face_down: true}\n");
        assert!(!exiled_instead_of_countered(&g, 1));
    }
}
