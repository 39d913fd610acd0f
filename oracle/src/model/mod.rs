//! The game state the simulator works on: players in turn order, zones, and objects.
//!
//! Every physical card (and token) has one slot in [`Game::objs`] for the whole scenario; its
//! `object_no` changes whenever it becomes a new object (CR 400.7), which is how targets and
//! "that card" references go stale.

mod chars;

pub use chars::Chars;

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::cards::def::CardDef;

/// A player, by seat: index 0 is the active player, then turn order (CR 101.4).
pub type PlayerId = usize;
/// An object's slot in [`Game::objs`].
pub type ObjId = usize;

/// A zone of the game (CR 400.1), plus a player's cards outside the game (400.11), which is not
/// a zone but is where 701.23j searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ZoneRef {
    /// A player's library, top first.
    Library(PlayerId),
    /// A player's hand.
    Hand(PlayerId),
    /// A player's graveyard, top first.
    Graveyard(PlayerId),
    /// A player's cards outside the game (sideboard).
    Outside(PlayerId),
    /// The battlefield.
    Battlefield,
    /// The stack, top first.
    Stack,
    /// Exile.
    Exile,
    /// The command zone.
    Command,
}

impl ZoneRef {
    /// The player a per-player zone belongs to.
    pub fn player(self) -> Option<PlayerId> {
        match self {
            ZoneRef::Library(p) | ZoneRef::Hand(p) | ZoneRef::Graveyard(p) | ZoneRef::Outside(p) => Some(p),
            _ => None,
        }
    }

    /// The zone's name in scenarios and outcomes: `exile`, or `Bob.library` for a player's zone.
    pub fn display(self, names: &[String]) -> String {
        self.display_with(|p| names.get(p).map(String::as_str))
    }

    /// [`ZoneRef::display`] with each player's name given by `name` (`None`: no such player).
    fn display_with<'n>(self, name: impl Fn(PlayerId) -> Option<&'n str>) -> String {
        // Built by hand rather than with `format!`: every outcome names every zone this way.
        let own = |p: PlayerId, z: &str| {
            let who = name(p).unwrap_or("?");
            let mut out = String::with_capacity(who.len() + 1 + z.len());
            out.push_str(who);
            out.push('.');
            out.push_str(z);
            out
        };
        match self {
            ZoneRef::Library(p) => own(p, "library"),
            ZoneRef::Hand(p) => own(p, "hand"),
            ZoneRef::Graveyard(p) => own(p, "graveyard"),
            ZoneRef::Outside(p) => own(p, "outside"),
            ZoneRef::Battlefield => "battlefield".into(),
            ZoneRef::Stack => "stack".into(),
            ZoneRef::Exile => "exile".into(),
            ZoneRef::Command => "command".into(),
        }
    }

    /// Parses a zone name as written by [`ZoneRef::display`].
    pub fn parse(text: &str, names: &[String]) -> Result<ZoneRef, ZoneParseError> {
        match text {
            "battlefield" => return Ok(ZoneRef::Battlefield),
            "stack" => return Ok(ZoneRef::Stack),
            "exile" => return Ok(ZoneRef::Exile),
            "command" => return Ok(ZoneRef::Command),
            _ => {}
        }
        let Some((who, zone)) = text.rsplit_once('.') else {
            return Err(ZoneParseError::Unknown { text: text.to_string() });
        };
        let p = names.iter().position(|n| n == who).ok_or_else(|| ZoneParseError::UnknownPlayer {
            player: who.to_string(),
            text: text.to_string(),
            players: names.to_vec(),
        })?;
        match zone {
            "library" => Ok(ZoneRef::Library(p)),
            "hand" => Ok(ZoneRef::Hand(p)),
            "graveyard" => Ok(ZoneRef::Graveyard(p)),
            "outside" => Ok(ZoneRef::Outside(p)),
            _ => Err(ZoneParseError::UnknownPlayerZone { zone: zone.to_string(), text: text.to_string() }),
        }
    }
}

/// Why a zone name doesn't parse ([`ZoneRef::parse`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ZoneParseError {
    /// Neither a shared zone nor `PLAYER.zone`.
    Unknown {
        /// The name as written.
        text: String,
    },
    /// `PLAYER.zone` naming no player of the game.
    UnknownPlayer {
        /// The player part.
        player: String,
        /// The name as written.
        text: String,
        /// The game's players.
        players: Vec<String>,
    },
    /// `PLAYER.zone` naming no zone a player has.
    UnknownPlayerZone {
        /// The zone part.
        zone: String,
        /// The name as written.
        text: String,
    },
}

impl fmt::Display for ZoneParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZoneParseError::Unknown { text } => write!(
                f,
                "unknown zone `{text}`: expected battlefield, stack, exile, command, or PLAYER.library/hand/graveyard/outside"
            ),
            ZoneParseError::UnknownPlayer { player, text, players } => {
                write!(f, "unknown player `{player}` in zone `{text}`; players are {}", players.join(", "))
            }
            ZoneParseError::UnknownPlayerZone { zone, text } => {
                write!(f, "unknown zone `{zone}` in `{text}`: expected library, hand, graveyard or outside")
            }
        }
    }
}

impl std::error::Error for ZoneParseError {}

/// One card or token and its state.
#[derive(Debug, Clone)]
pub struct Obj {
    /// The scenario's id for this card: stable across zone changes. Held inline (an id of up to
    /// 24 bytes, which is nearly every id, needs no allocation): every replay clones the game, and
    /// a `String` per card (an allocation), then an `Arc<str>` (a shared count, touched in memory
    /// of its own on each clone and drop) made that clone and its drop much of a large
    /// judgement's cost (issue 13).
    pub id: compact_str::CompactString,
    /// Its definition.
    pub def: Arc<CardDef>,
    /// Its characteristics off the stack (709.4 for split cards), computed once per definition.
    pub chars: Arc<Chars>,
    /// Owner (CR 108.3).
    pub owner: PlayerId,
    /// Controller while on the battlefield or stack.
    pub controller: PlayerId,
    /// Its controller when it was last on the battlefield, for last known information (608.2h).
    pub last_controller: PlayerId,
    /// Last known information (608.2h): the object number it had before its latest zone change,
    /// and its characteristics as that object.
    pub last_chars: Option<(u32, Arc<Chars>)>,
    /// Where it is.
    pub zone: ZoneRef,
    /// Increments each time it becomes a new object (CR 400.7).
    pub object_no: u32,
    /// Bit set of players who have seen this object's face since it became this object.
    pub known: u8,
    /// +1/+1 counters.
    pub counters: u32,
    /// A token (CR 111): once it leaves the battlefield it ceases to exist (704.5d); the simulator
    /// removes it from its new zone right after the move.
    pub token: bool,
    /// Face down: its characteristics are those 708.2a / 406.3a give, not its card's.
    pub face_down: bool,
    /// A copy of a card created to be cast (CR 707.12); it ceases to exist anywhere but the stack
    /// (704.5e).
    pub copy: bool,
    /// A copy of a spell put on the stack without being cast (CR 707.10, gravestorm's copies):
    /// it isn't a card, and it ceases to exist as it leaves the stack rather than going anywhere
    /// (704.5e, `rules::copy`).
    pub spell_copy: bool,
    /// Status that lasts only as long as this object (reset on every zone change, CR 400.7).
    pub flags: Flags,
}

impl Obj {
    /// Its id as an owned `String`, as outcomes and messages hold ids (a copy of the text, without
    /// going through `Display` as `to_string` would).
    pub fn id_string(&self) -> String {
        String::from(self.id.as_str())
    }
}

/// An object's [`ObjFlags`], held in a box only when some flag is set: most objects (a library's
/// cards) have none, and every replay copies every object, so the 88 bytes of flags would make
/// each object half as large again (issue 13: a 100 000-card judgement's passes over the objects
/// are bound by memory). Reads go through `Deref` (no flags read as [`ObjFlags::NONE`]); a write
/// through `DerefMut` boxes them first.
#[derive(Debug, Clone, Default)]
pub struct Flags(Option<Box<ObjFlags>>);

/// Equal when the flags are, boxed or not.
impl PartialEq for Flags {
    fn eq(&self, other: &Flags) -> bool {
        **self == **other
    }
}

impl Eq for Flags {}

impl Flags {
    /// Flags holding `flags` (no box when they are all unset).
    pub fn new(flags: ObjFlags) -> Flags {
        Flags((flags != ObjFlags::NONE).then(|| Box::new(flags)))
    }

    /// Runs `unset` on the flags if any is set: for a change that only unsets flags (to their
    /// [`ObjFlags::NONE`] values), which an object without flags doesn't need, so it gets no box.
    pub fn unset(&mut self, unset: impl FnOnce(&mut ObjFlags)) {
        if let Some(flags) = self.0.as_deref_mut() {
            unset(flags);
        }
    }
}

impl std::ops::Deref for Flags {
    type Target = ObjFlags;
    fn deref(&self) -> &ObjFlags {
        self.0.as_deref().unwrap_or(&ObjFlags::NONE)
    }
}

impl std::ops::DerefMut for Flags {
    fn deref_mut(&mut self) -> &mut ObjFlags {
        self.0.get_or_insert_with(|| Box::new(ObjFlags::NONE))
    }
}

/// Per-object status the simulator tracks beyond characteristics. Every zone change starts it
/// over (CR 400.7); the simulator sets what the new object needs after the move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ObjFlags {
    /// Tapped (a permanent).
    pub tapped: bool,
    /// Has flashback granted by an effect (e.g. Snapcaster Mage, Recoup), in the graveyard.
    pub granted_flashback: bool,
    /// A spell cast with flashback: exiled instead of going anywhere else when it leaves the
    /// stack (CR 702.34a).
    pub leaves_stack_to_exile: bool,
    /// A spell that is exiled instead of being put into a graveyard (Jetsam).
    pub graveyard_to_exile: bool,
    /// The player who may look at and cast this face-down exiled card (CR 406.3, 406.3b), or
    /// cast this card exiled by its own Adventure's resolution (715.3d, with `on_adventure`).
    pub playable_by: Option<PlayerId>,
    /// Exiled as its Adventure resolved (CR 715.3d): `playable_by` may cast it from exile, but
    /// only normally, not as the Adventure again.
    pub on_adventure: bool,
    /// Exiled by a linked ability of this object (id, object number) (CR 406.6, 607).
    pub exiled_with: Option<(ObjId, u32)>,
    /// Revealed as the top card of a library by a "play with the top card revealed" effect
    /// (CR 401.5–401.6).
    pub revealed_on_top: bool,
    /// Exiled until this object (id, object number) leaves the battlefield (CR 610.3).
    pub exiled_until: Option<(ObjId, u32)>,
    /// The players (a bit per seat) who took the special action of ignoring this permanent's
    /// "can't search" effect until end of turn (Leonin Arbiter; CR 116.2d). The oracle plays
    /// within one turn, so it lasts the whole scenario; a new object starts with none (400.7).
    pub search_ban_ignored_by: u8,
    /// Exiled by one of several Opposition Agents of different controllers: who may play it
    /// depends on which Agent's replacement applied, a 616.1 choice the oracle doesn't model, so
    /// playing it is refused as unmodelled.
    pub play_permission_unmodelled: bool,
    /// Entered the battlefield during the scenario, so its controller has not controlled it
    /// since the turn began (302.6); a permanent the scenario starts with on the battlefield has
    /// been there since the turn began.
    pub entered_this_turn: bool,
    /// The batch ([`Game::open_batch`]) this permanent entered the battlefield in, when it entered
    /// as part of one: the other cards moving in that batch move at the same time as it enters, so
    /// its replacement effects don't apply to them (614.1, 101.4).
    pub entered_in_batch: Option<u64>,
    /// Damage marked on this permanent (120.3e); the scenario is one turn, so it stays until the
    /// permanent leaves the battlefield.
    pub damage: u32,
    /// Loyalty counters on this permanent (306.5b: a planeswalker enters with its printed
    /// loyalty); a new object starts without counters (400.7).
    pub loyalty: u32,
    /// A loyalty ability of this permanent has been activated this turn (606.3); the scenario is
    /// one turn, and a new object may be activated again (400.7).
    pub loyalty_activated: bool,
    /// Time counters on this card (a suspended card in exile, 702.62a–b); a new object starts
    /// without counters (400.7).
    pub time_counters: u32,
}

impl ObjFlags {
    /// No flag set: a new object's status (400.7).
    pub const NONE: ObjFlags = ObjFlags {
        tapped: false,
        granted_flashback: false,
        leaves_stack_to_exile: false,
        graveyard_to_exile: false,
        playable_by: None,
        on_adventure: false,
        exiled_with: None,
        revealed_on_top: false,
        exiled_until: None,
        search_ban_ignored_by: 0,
        play_permission_unmodelled: false,
        entered_this_turn: false,
        entered_in_batch: None,
        damage: 0,
        loyalty: 0,
        loyalty_activated: false,
        time_counters: 0,
    };
}

/// A player's state.
#[derive(Debug, Clone)]
pub struct Player {
    /// Name, unique in the scenario.
    pub name: String,
    /// Life total.
    pub life: i32,
}

/// Which positions of a library the rules fix. Initially every position is fixed (the scenario
/// lists the library top first); a shuffle (CR 701.24a) makes every position random; cards put on
/// top afterwards have fixed positions again — except that cards put there at the same time form
/// a group whose order their owner chooses (401.4).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LibraryShape {
    /// Sizes of the groups at the top with known positions, top first; a group of one is one
    /// fixed position, a larger group is a set of cards in an order of their owner's choice.
    pub top_groups: Vec<usize>,
    /// Sizes of the groups at the bottom with known positions, top first (the last is the
    /// bottom card): a group of one is one fixed position, a larger group is a set of cards put
    /// there at once, in an order their owner chooses (401.4).
    pub bottom_groups: Vec<usize>,
}

/// Removes one position from the group of `groups` (sizes, in order) that holds position `idx`
/// (counted from the first group), dropping the group once empty; false when `idx` lies past them.
fn take_one_at(groups: &mut Vec<usize>, idx: usize) -> bool {
    let mut start = 0;
    for g in 0..groups.len() {
        if idx < start + groups[g] {
            groups[g] -= 1;
            if groups[g] == 0 {
                groups.remove(g);
            }
            return true;
        }
        start += groups[g];
    }
    false
}

impl LibraryShape {
    /// A library in the order it was set up: every position fixed.
    pub fn ordered(len: usize) -> Self {
        LibraryShape { top_groups: vec![1; len], bottom_groups: Vec::new() }
    }

    /// How many cards from the top are in fixed groups.
    pub fn top_fixed(&self) -> usize {
        self.top_groups.iter().sum()
    }

    /// How many cards from the bottom are in fixed groups.
    pub fn bottom_fixed(&self) -> usize {
        self.bottom_groups.iter().sum()
    }

    /// The card at `idx` (of a library of `old_len` cards) left the library.
    pub fn remove_at(&mut self, idx: usize, old_len: usize) {
        if take_one_at(&mut self.top_groups, idx) {
            return;
        }
        let bottom = self.bottom_fixed().min(old_len);
        if idx >= old_len - bottom {
            take_one_at(&mut self.bottom_groups, idx - (old_len - bottom));
        }
    }

    /// A card was put into a library of (now) `new_len` cards, on top or at the bottom.
    pub fn insert(&mut self, on_top: bool, new_len: usize) {
        let fully_fixed = self.top_fixed() >= new_len - 1 && self.bottom_groups.is_empty();
        if on_top {
            self.top_groups.insert(0, 1);
        } else if fully_fixed {
            self.top_groups.push(1);
        } else {
            self.bottom_groups.push(1);
        }
    }

    /// 401.4 / 701.20d: the top `k` cards of a library of `len` cards were looked at and put back
    /// in an order their owner chose: they become one group. The caller took them with
    /// `top_cards`, so they are whole segments (fixed groups, then possibly the whole random
    /// middle and some fixed bottom cards).
    pub fn merge_top(&mut self, k: usize, len: usize) {
        let k = k.min(len);
        if k < 2 {
            return;
        }
        let top = self.top_fixed().min(len);
        if k <= top {
            let mut sum = 0;
            let mut groups = 0;
            while sum < k {
                sum += self.top_groups[groups];
                groups += 1;
            }
            if sum == k {
                self.top_groups.drain(..groups);
                self.top_groups.insert(0, k);
            }
        } else {
            let bottom = self.bottom_groups.iter().sum::<usize>().min(len - top);
            let middle = len - top - bottom;
            // The looked-at cards reach into the bottom groups: those positions join the top group.
            let mut take = k.saturating_sub(top + middle).min(bottom);
            while take > 0 && !self.bottom_groups.is_empty() {
                if self.bottom_groups[0] <= take {
                    take -= self.bottom_groups.remove(0);
                } else {
                    self.bottom_groups[0] -= take;
                    take = 0;
                }
            }
            self.top_groups = vec![k];
        }
    }

    /// 401.4: the top `k` cards were put there at the same time, so their owner orders them.
    pub fn group_top(&mut self, k: usize) {
        if k < 2 || self.top_groups.len() < k || self.top_groups[..k].iter().any(|&g| g != 1) {
            return;
        }
        self.top_groups.drain(..k);
        self.top_groups.insert(0, k);
    }

    /// 401.4: the bottom `k` cards of a library of `len` cards were put there at the same time,
    /// so their owner orders them. In a library whose every position is fixed they are the last
    /// top groups.
    pub fn group_bottom(&mut self, k: usize, len: usize) {
        let groups = if self.bottom_groups.is_empty() && self.top_fixed() >= len {
            &mut self.top_groups
        } else {
            &mut self.bottom_groups
        };
        let n = groups.len();
        if k < 2 || n < k || groups[n - k..].iter().any(|&g| g != 1) {
            return;
        }
        groups.truncate(n - k);
        groups.push(k);
    }
}

/// The whole game state.
#[derive(Debug, Clone)]
pub struct Game {
    /// Players in turn order, the active player first.
    pub players: Vec<Player>,
    /// Every object, by slot.
    pub objs: Vec<Obj>,
    /// Zone contents, in order (top first for libraries, graveyards and the stack).
    pub zones: BTreeMap<ZoneRef, Vec<ObjId>>,
    /// Per-player library shapes.
    pub shapes: Vec<LibraryShape>,
    /// Predefined token definitions by name (Clue, CR 111.10f), for effects that create them.
    pub token_defs: BTreeMap<String, Arc<CardDef>>,
    /// Tokens created so far, to number their ids.
    pub tokens_made: u32,
    /// For each card put into a graveyard during the run, the batch it went there in: cards of
    /// one batch were put there at the same time, so their owner orders them (see
    /// [`Game::graveyard_groups`]). Cards the scenario starts there with have none.
    pub graveyard_batch: BTreeMap<ObjId, u64>,
    /// Batches numbered so far.
    pub batches: u64,
    /// The batch of an action that puts several cards into graveyards at once, while it runs.
    pub open_batch: Option<u64>,
    /// The players (a bit per seat) who searched their own library this turn — the oracle plays
    /// within one turn, so during the scenario (Archive Trap's condition, 118.9).
    pub searched_own_library: u8,
    /// Per player, the creature types of the creatures they controlled that dealt combat damage to
    /// a player this turn — a fact the scenario states, as the oracle plays no combat (prowl,
    /// 702.76a).
    pub dealt_combat_damage_with: Vec<Vec<String>>,
    /// How many permanents were put into a graveyard from the battlefield earlier this turn,
    /// before the scenario's steps — a fact the scenario states (gravestorm, 702.69a).
    pub permanents_to_graveyards_earlier: u32,
    /// How many permanents the run has put into a graveyard from the battlefield (a token too,
    /// before it ceases to exist; 704.5d). Gravestorm adds these to the earlier ones.
    pub permanents_to_graveyards: u32,
    /// Where the scenario is in the turn (501.1): before any step it names, in a step of the
    /// beginning phase a `begin_step` began, or in the main phase once a sorcery-speed action
    /// ended the draw step (`rules::turn_structure`).
    pub turn_position: TurnPosition,
    /// Each setup object's place in the order of card ids (by [`ObjId`]), so that putting a
    /// shuffled library in id order compares numbers instead of strings. Objects made during the
    /// run have none (their slot is past the end).
    pub id_order: Arc<[u32]>,
}

impl Game {
    /// The place of `obj` in the order of card ids, if it was set up with the game.
    pub fn id_rank(&self, obj: ObjId) -> Option<u32> {
        self.id_order.get(obj).copied()
    }

    /// Player names, by seat.
    pub fn names(&self) -> Vec<String> {
        self.players.iter().map(|p| p.name.clone()).collect()
    }

    /// `zone`'s name ([`ZoneRef::display`]) in this game, without listing the players' names
    /// first: the simulator names two zones for every card it moves.
    pub fn zone_name(&self, zone: ZoneRef) -> String {
        zone.display_with(|p| self.players.get(p).map(|player| player.name.as_str()))
    }

    /// Bit set with every player.
    pub fn everyone(&self) -> u8 {
        ((1u16 << self.players.len()) - 1) as u8
    }

    /// A zone's contents (empty if it was never used).
    pub fn zone(&self, zone: ZoneRef) -> &[ObjId] {
        self.zones.get(&zone).map_or(&[], |v| v.as_slice())
    }

    /// A zone's contents, for editing.
    pub fn zone_mut(&mut self, zone: ZoneRef) -> &mut Vec<ObjId> {
        self.zones.entry(zone).or_default()
    }

    /// The object in a slot.
    pub fn obj(&self, id: ObjId) -> &Obj {
        &self.objs[id]
    }

    /// A graveyard as groups of consecutive cards, top first, by size. 400.5: the order of a
    /// graveyard can't be changed, so each card is a group of its own — except cards put there at
    /// the same time, which form one group in an order their owner chooses (as 401.4 says for a
    /// library; a modelling decision, see docs/decisions.md).
    pub fn graveyard_groups(&self, player: PlayerId) -> Vec<usize> {
        let mut groups: Vec<usize> = Vec::new();
        let mut last: Option<u64> = None;
        for o in self.zone(ZoneRef::Graveyard(player)) {
            let batch = self.graveyard_batch.get(o).copied();
            match (batch, groups.last_mut()) {
                (Some(b), Some(size)) if last == Some(b) => *size += 1,
                _ => groups.push(1),
            }
            last = batch;
        }
        groups
    }
}

/// The zone by variant and seat, e.g. `Library(0)` or `Battlefield` (for messages that have no
/// player names at hand; [`ZoneRef::display`] uses them).
impl fmt::Display for ZoneRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZoneRef::Library(p) => write!(f, "Library({p})"),
            ZoneRef::Hand(p) => write!(f, "Hand({p})"),
            ZoneRef::Graveyard(p) => write!(f, "Graveyard({p})"),
            ZoneRef::Outside(p) => write!(f, "Outside({p})"),
            ZoneRef::Battlefield => f.write_str("Battlefield"),
            ZoneRef::Stack => f.write_str("Stack"),
            ZoneRef::Exile => f.write_str("Exile"),
            ZoneRef::Command => f.write_str("Command"),
        }
    }
}

/// Where a scenario is in its turn (501.1; `rules::turn_structure` decides the moves). A scenario that names no step is taken to be in its
/// active player's main phase whenever a sorcery-speed action needs it (117.1a); once it names a
/// step of the beginning phase, the steps go in order, each once, and sorcery-speed actions wait
/// for the main phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TurnPosition {
    /// No step named yet.
    #[default]
    Unnamed,
    /// In this step of the beginning phase.
    Step(crate::cards::instructions::TurnStep),
    /// In the main phase: a sorcery-speed action was taken.
    Main,
}

/// A hash map for card ids and other short keys, with a fast hash seeded per process (foldhash):
/// the standard SipHash costs more than the comparisons it serves. Only speed depends on it.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// An empty [`FastMap`] with room for `capacity` entries.
pub(crate) fn fast_map<K, V>(capacity: usize) -> FastMap<K, V> {
    FastMap::with_capacity_and_hasher(capacity, foldhash::fast::RandomState::default())
}

#[cfg(test)]
mod flags_tests {
    use super::*;

    /// An object without flags reads as a new object's status; a write boxes the flags; a change
    /// that only unsets flags leaves an unboxed object unboxed and unsets a boxed one's; boxed or
    /// not, equal flags are equal.
    #[test]
    fn flags_read_as_none_until_written() {
        assert_eq!(ObjFlags::default(), ObjFlags::NONE);
        let mut flags = Flags::default();
        assert_eq!(*flags, ObjFlags::NONE);
        flags.unset(|f| f.tapped = false);
        assert!(flags.0.is_none(), "unsetting a flag boxed the flags");
        flags.tapped = true;
        assert!(flags.0.is_some() && flags.tapped);
        flags.unset(|f| f.tapped = false);
        assert!(!flags.tapped);
        assert_eq!(flags, Flags::default(), "boxed flags with none set differ from no flags");
        assert!(Flags::new(ObjFlags::NONE).0.is_none());
        let set = ObjFlags { damage: 3, ..ObjFlags::NONE };
        assert_eq!(*Flags::new(set), set);
        assert_ne!(Flags::new(set), Flags::default());
    }
}
