//! One game: a policy against a placer, under a variant's turn order.

use super::board::{value_of, Board, Direction};
use super::spawn::{Placer, Spawn, Timing};

/// Chooses the player's move. Called only when a legal move exists.
pub trait Policy {
    fn choose(&mut self, board: Board) -> Direction;
}

impl<F: FnMut(Board) -> Direction> Policy for F {
    fn choose(&mut self, board: Board) -> Direction {
        self(board)
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// No legal move is left.
    GameOver,
    /// Two 32768s merged: a 65536 was made, which the board cannot hold. The
    /// game ends here and counts as reaching 65536.
    TileCap,
    /// The move limit was reached.
    MoveLimit,
    /// The placer had no tile to give (a judge ended the game).
    PlacerDone,
    /// The policy chose an illegal move (a bug in the policy).
    IllegalMove,
    /// The game was stopped before its end (a learning game at its stop
    /// tile: [`Stepper::stop`]).
    Stopped,
}

impl Outcome {
    /// Every outcome, in declaration order.
    pub const ALL: [Outcome; 6] = [
        Outcome::GameOver,
        Outcome::TileCap,
        Outcome::MoveLimit,
        Outcome::PlacerDone,
        Outcome::IllegalMove,
        Outcome::Stopped,
    ];

    /// The outcome [`Outcome::name`] names.
    pub fn from_name(name: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Outcome::GameOver => "game_over",
            Outcome::TileCap => "tile_cap",
            Outcome::MoveLimit => "move_limit",
            Outcome::PlacerDone => "placer_done",
            Outcome::IllegalMove => "illegal_move",
            Outcome::Stopped => "stopped",
        }
    }
}

/// What a finished game leaves behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameRecord {
    /// Legal moves played.
    pub moves: u32,
    /// Sum of the values of all merged tiles.
    pub score: u64,
    /// Largest tile value reached (65536 when the game ended at the tile cap).
    pub max_tile: u32,
    /// Number of 4s that were placed.
    pub fours: u32,
    pub outcome: Outcome,
    /// The last position.
    pub board: Board,
}

/// Rules of a game loop: the variant's turn order and optional limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnOrder {
    pub timing: Timing,
    pub start_tiles: u32,
    /// Stop after this many moves (`None`: play to the end).
    pub move_limit: Option<u32>,
}

/// A position with the player to move, and what the game had earned when
/// it got there: where a game from a position bank starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Start {
    /// The board the next move is made on (after any spawn due before it).
    pub board: Board,
    /// Score earned before this position.
    pub score: u64,
    /// Moves played before this position.
    pub moves: u32,
}

impl Start {
    /// The start a game of seed `seed` plays from among `starts`:
    /// `starts[seed % len]`. Game seeds are well mixed, so this draws
    /// positions evenly; every player of a seed starts from the same one.
    pub fn pick(starts: &[Start], seed: u64) -> Start {
        assert!(!starts.is_empty(), "a stage with positions");
        starts[(seed % starts.len() as u64) as usize]
    }
}

/// Plays one game from `start`: the variant's start tiles are placed on it
/// first. Every move the policy makes is reported to `observe` with the
/// board it was made on.
pub fn play_game(
    order: TurnOrder,
    start: Board,
    policy: &mut impl Policy,
    placer: &mut impl Placer,
    observe: impl FnMut(Board, Direction),
) -> GameRecord {
    let mut game = Game::new(Start {
        board: start,
        score: 0,
        moves: 0,
    });
    for _ in 0..order.start_tiles {
        if !game.spawn(placer) {
            return game.finish(Outcome::PlacerDone);
        }
    }
    game.play(order, true, policy, placer, observe)
}

/// Continues a game from `start`, where the player is to move: no start
/// tiles, and no spawn before the first move even where the variant places
/// tiles before moves. The record's score and moves include the start's;
/// its 4s count only those placed from `start` on, and `order.move_limit`
/// counts only the moves made from `start` on. Fed the spawns a whole game
/// would have seen after reaching `start`, it ends exactly as that game.
pub fn play_from(
    order: TurnOrder,
    start: Start,
    policy: &mut impl Policy,
    placer: &mut impl Placer,
    observe: impl FnMut(Board, Direction),
) -> GameRecord {
    Game::new(start).play(order, false, policy, placer, observe)
}

/// A game in progress: the board, and the record so far.
#[derive(Clone, Copy)]
struct Game {
    board: Board,
    record: GameRecord,
    /// Moves made before this game started (a position's moves).
    moves_before: u32,
}

impl Game {
    fn new(start: Start) -> Game {
        Game {
            board: start.board,
            record: GameRecord {
                moves: start.moves,
                score: start.score,
                max_tile: 0,
                fours: 0,
                outcome: Outcome::GameOver,
                board: start.board,
            },
            moves_before: start.moves,
        }
    }

    /// Places the placer's next tile; false when it has none or it is illegal.
    fn spawn(&mut self, placer: &mut impl Placer) -> bool {
        let Some(Spawn { cell, rank }) = placer.place(self.board) else {
            return false;
        };
        match self.board.place(cell, rank) {
            Ok(b) => {
                self.board = b;
                self.record.fours += u32::from(rank == 2);
                true
            }
            Err(_) => false,
        }
    }

    fn finish(mut self, outcome: Outcome) -> GameRecord {
        self.record.board = self.board;
        self.record.outcome = outcome;
        if outcome != Outcome::TileCap {
            self.record.max_tile = value_of(self.board.max_rank());
        }
        self.record
    }

    /// The game loop; `spawn_first` is false when the first move is due
    /// before any spawn (a game continued from a position).
    fn play(
        mut self,
        order: TurnOrder,
        mut spawn_first: bool,
        policy: &mut impl Policy,
        placer: &mut impl Placer,
        mut observe: impl FnMut(Board, Direction),
    ) -> GameRecord {
        loop {
            let board = match self.turn(order, &mut spawn_first, placer) {
                Ok(board) => board,
                Err(outcome) => return self.finish(outcome),
            };
            let dir = policy.choose(board);
            if let Err(outcome) = self.apply(order, dir, placer, &mut observe) {
                return self.finish(outcome);
            }
        }
    }

    /// What comes before a move: the spawn due before it, if any; the board
    /// to move on, or why the game ends here.
    fn turn(
        &mut self,
        order: TurnOrder,
        spawn_first: &mut bool,
        placer: &mut impl Placer,
    ) -> Result<Board, Outcome> {
        let before = order.timing == Timing::BeforeMove && *spawn_first;
        *spawn_first = true;
        if before && !self.spawn(placer) {
            return Err(Outcome::PlacerDone);
        }
        if !self.board.has_move() {
            return Err(Outcome::GameOver);
        }
        let played = self.record.moves - self.moves_before;
        if order.move_limit.is_some_and(|limit| played >= limit) {
            return Err(Outcome::MoveLimit);
        }
        Ok(self.board)
    }

    /// The move `dir` and the spawn due after it, if any; `Err` when the
    /// game ends with them.
    fn apply(
        &mut self,
        order: TurnOrder,
        dir: Direction,
        placer: &mut impl Placer,
        observe: &mut impl FnMut(Board, Direction),
    ) -> Result<(), Outcome> {
        let Some(moved) = self.board.make_move(dir) else {
            return Err(Outcome::IllegalMove);
        };
        observe(self.board, dir);
        self.record.moves += 1;
        self.record.score += u64::from(moved.score);
        self.board = moved.board;
        if moved.overflow {
            self.record.max_tile = 65536;
            return Err(Outcome::TileCap);
        }
        if order.timing == Timing::AfterMove && !self.spawn(placer) {
            return Err(Outcome::PlacerDone);
        }
        Ok(())
    }
}

/// A game played one move at a time, for a policy that answers the moves of
/// many games together (an external player's `boards` line): the same game
/// [`play_game`] or [`play_from`] plays with the same moves and spawns.
pub struct Stepper<P: Placer> {
    game: Game,
    order: TurnOrder,
    placer: P,
    spawn_first: bool,
    /// The board the next move is due on, once [`Stepper::board`] found it.
    due: Option<Board>,
    /// Why the game ended, once it did.
    end: Option<Outcome>,
}

impl<P: Placer> Stepper<P> {
    /// A game from `start` (`None`: the empty board with the variant's start
    /// tiles, as [`play_game`]; a position: as [`play_from`]).
    pub fn new(order: TurnOrder, start: Option<Start>, placer: P) -> Stepper<P> {
        match start {
            Some(start) => Stepper::begin(order, Game::new(start), false, placer),
            None => Stepper::on(order, Board::EMPTY, placer),
        }
    }

    /// A game from `board` with the variant's start tiles placed on it, as
    /// [`play_game`] plays it.
    pub fn on(order: TurnOrder, board: Board, placer: P) -> Stepper<P> {
        let game = Game::new(Start {
            board,
            score: 0,
            moves: 0,
        });
        Stepper::begin(order, game, true, placer)
    }

    fn begin(order: TurnOrder, mut game: Game, spawn_first: bool, mut placer: P) -> Stepper<P> {
        let mut end = None;
        if spawn_first && !(0..order.start_tiles).all(|_| game.spawn(&mut placer)) {
            end = Some(Outcome::PlacerDone);
        }
        Stepper {
            game,
            order,
            placer,
            spawn_first,
            due: None,
            end,
        }
    }

    /// The board the next move is due on; `None` once the game is over.
    pub fn board(&mut self) -> Option<Board> {
        if self.end.is_some() {
            return None;
        }
        if self.due.is_none() {
            match self
                .game
                .turn(self.order, &mut self.spawn_first, &mut self.placer)
            {
                Ok(board) => self.due = Some(board),
                Err(outcome) => self.end = Some(outcome),
            }
        }
        self.due
    }

    /// Plays `dir` on the board [`Stepper::board`] gave.
    pub fn play(&mut self, dir: Direction) {
        assert!(self.due.take().is_some(), "a move is due");
        if let Err(outcome) = self
            .game
            .apply(self.order, dir, &mut self.placer, &mut |_, _| {})
        {
            self.end = Some(outcome);
        }
    }

    /// The finished game's record (`None` while a move is still due).
    pub fn record(&mut self) -> Option<GameRecord> {
        self.board();
        let end = self.end?;
        Some(self.game.finish(end))
    }

    /// The record of the game as it stands, ended here: [`Outcome::Stopped`]
    /// unless it had ended already.
    pub fn stop(&mut self) -> GameRecord {
        let end = *self.end.get_or_insert(Outcome::Stopped);
        self.game.finish(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::spawn::{RandomPlacer, ScriptedPlacer, Variant};

    #[test]
    fn every_outcome_is_named_once_and_read_back() {
        // Adding an outcome breaks this match: add it to `Outcome::ALL` too.
        let position = |o: Outcome| match o {
            Outcome::GameOver => 0,
            Outcome::TileCap => 1,
            Outcome::MoveLimit => 2,
            Outcome::PlacerDone => 3,
            Outcome::IllegalMove => 4,
            Outcome::Stopped => 5,
        };
        for (i, o) in Outcome::ALL.into_iter().enumerate() {
            assert_eq!(position(o), i);
            assert_eq!(Outcome::from_name(o.name()), Some(o));
        }
        assert_eq!(Outcome::from_name("won"), None);
    }

    fn first_legal(board: Board) -> Direction {
        board.legal_moves().next().unwrap()
    }

    fn order(variant: Variant) -> TurnOrder {
        TurnOrder {
            timing: variant.timing(),
            start_tiles: variant.start_tiles(),
            move_limit: None,
        }
    }

    #[test]
    fn classic_game_is_replayable_from_its_seed() {
        let play = |seed| {
            let mut placer = RandomPlacer::new(seed, 0.1);
            play_game(
                order(Variant::CLASSIC),
                Board::EMPTY,
                &mut first_legal,
                &mut placer,
                |_, _| {},
            )
        };
        let a = play(11);
        assert_eq!(a, play(11));
        assert_eq!(a.outcome, Outcome::GameOver);
        assert!(!a.board.has_move());
        assert!(a.moves > 10 && a.score > 0);
        assert_ne!(a, play(12));
    }

    #[test]
    fn twos_places_before_each_move_and_never_a_four() {
        let mut placer = RandomPlacer::new(3, 0.0);
        let mut boards = Vec::new();
        let r = play_game(
            order(Variant::Twos),
            Board::EMPTY,
            &mut first_legal,
            &mut placer,
            |b, _| boards.push(b),
        );
        assert_eq!(r.fours, 0);
        // The first move is made on a board holding exactly the first 2.
        assert_eq!(boards[0].count_empty(), 15);
        assert_eq!(boards.len() as u32, r.moves);
    }

    #[test]
    fn judge_sample_from_boj_28489() {
        // Judge: 10 4 6 15 8 -1; program: UP LEFT RIGHT DOWN DOWN. The
        // transcript is schematic: by the rules its last DOWN changes nothing,
        // and the game loop reports that rather than playing it.
        let cells = [10, 4, 6, 15, 8];
        let mut placer = ScriptedPlacer::new(cells.map(|p| Spawn {
            cell: p - 1,
            rank: 1,
        }));
        let mut script = [
            Direction::Up,
            Direction::Left,
            Direction::Right,
            Direction::Down,
            Direction::Down,
        ]
        .into_iter();
        let mut seen = Vec::new();
        let r = play_game(
            order(Variant::Twos),
            Board::EMPTY,
            &mut |_| script.next().unwrap(),
            &mut placer,
            |b, d| seen.push((b, d)),
        );
        let expect = |values| Board::from_values(values).unwrap();
        assert_eq!(
            seen[0].0,
            expect([0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0])
        );
        assert_eq!(
            seen[1].0,
            expect([0, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        );
        assert_eq!(r.moves, 4);
        assert_eq!(r.outcome, Outcome::IllegalMove);
        assert_eq!(
            r.board,
            expect([0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 2, 2])
        );
    }

    #[test]
    fn tile_cap_ends_the_game_at_65536() {
        let start =
            Board::from_values([32768, 32768, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        let mut placer = RandomPlacer::new(5, 0.1);
        let order = TurnOrder {
            timing: Timing::AfterMove,
            start_tiles: 0,
            move_limit: None,
        };
        let r = play_game(
            order,
            start,
            &mut |_| Direction::Left,
            &mut placer,
            |_, _| {},
        );
        assert_eq!(r.outcome, Outcome::TileCap);
        assert_eq!(r.max_tile, 65536);
        assert_eq!(r.score, 65536);
    }

    /// Records the spawns an inner placer makes.
    struct Logged<P> {
        inner: P,
        log: Vec<Spawn>,
    }

    impl<P: Placer> Placer for Logged<P> {
        fn place(&mut self, board: Board) -> Option<Spawn> {
            let s = self.inner.place(board)?;
            self.log.push(s);
            Some(s)
        }
    }

    /// A whole game, cut at move `k` and continued from there with the
    /// spawns it went on to see, ends exactly where the whole game ended.
    fn continued_game_matches_the_whole_game(variant: Variant, seed: u64, k: u32) {
        let mut placer = Logged {
            inner: RandomPlacer::new(seed, variant.p4()),
            log: Vec::new(),
        };
        let mut start = None;
        let mut score = 0;
        let mut moves = 0;
        let whole = play_game(
            order(variant),
            Board::EMPTY,
            &mut first_legal,
            &mut placer,
            |board, dir| {
                if moves == k {
                    start = Some(Start {
                        board,
                        score,
                        moves,
                    });
                }
                score += u64::from(board.make_move(dir).unwrap().score);
                moves += 1;
            },
        );
        let start = start.expect("the game lasts past move k");
        let before =
            order(variant).start_tiles + k + u32::from(variant.timing() == Timing::BeforeMove);
        let rest = &placer.log[before as usize..];
        let fours_before = placer.log[..before as usize]
            .iter()
            .filter(|s| s.rank == 2)
            .count() as u32;
        let mut scripted = ScriptedPlacer::new(rest.iter().copied());
        let from = play_from(
            order(variant),
            start,
            &mut first_legal,
            &mut scripted,
            |_, _| {},
        );
        assert_eq!(
            from,
            GameRecord {
                fours: whole.fours - fours_before,
                ..whole
            }
        );
        let limited = TurnOrder {
            move_limit: Some(5),
            ..order(variant)
        };
        let mut scripted = ScriptedPlacer::new(rest.iter().copied());
        let r = play_from(limited, start, &mut first_legal, &mut scripted, |_, _| {});
        assert_eq!((r.moves, r.outcome), (k + 5, Outcome::MoveLimit));
    }

    #[test]
    fn a_game_continued_from_a_position_ends_as_the_whole_game() {
        continued_game_matches_the_whole_game(Variant::CLASSIC, 21, 40);
        continued_game_matches_the_whole_game(Variant::Twos, 8, 25);
    }

    #[test]
    fn move_limit_stops_the_game() {
        let mut placer = RandomPlacer::new(2, 0.1);
        let order = TurnOrder {
            move_limit: Some(3),
            ..order(Variant::CLASSIC)
        };
        let r = play_game(
            order,
            Board::EMPTY,
            &mut first_legal,
            &mut placer,
            |_, _| {},
        );
        assert_eq!((r.moves, r.outcome), (3, Outcome::MoveLimit));
    }

    #[test]
    fn a_stepped_game_is_the_game_played_in_one_go() {
        // A policy that depends on the board alone, and not always the first move.
        let policy = |board: Board| {
            let legal: Vec<Direction> = board.legal_moves().collect();
            legal[(board.0 % legal.len() as u64) as usize]
        };
        for variant in [Variant::CLASSIC, Variant::Twos] {
            for (seed, limit) in [(1, None), (2, Some(40)), (3, None), (4, Some(0))] {
                let order = TurnOrder {
                    move_limit: limit,
                    ..order(variant)
                };
                let placer = || RandomPlacer::new(seed, variant.p4());
                let whole = play_game(
                    order,
                    Board::EMPTY,
                    &mut { policy },
                    &mut placer(),
                    |_, _| {},
                );
                let mut stepper = Stepper::new(order, None, placer());
                while let Some(board) = stepper.board() {
                    assert_eq!(stepper.record(), None);
                    stepper.play(policy(board));
                }
                assert_eq!(stepper.record(), Some(whole), "{variant:?} {seed}");
            }
        }
        // A position with moves left, continued both ways.
        let board = Board::from_values([2, 4, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4]).unwrap();
        let start = Start {
            board,
            score: 100,
            moves: 7,
        };
        let order = order(Variant::Twos);
        let whole = play_from(
            order,
            start,
            &mut { policy },
            &mut RandomPlacer::new(9, 0.0),
            |_, _| {},
        );
        let mut stepper = Stepper::new(order, Some(start), RandomPlacer::new(9, 0.0));
        while let Some(b) = stepper.board() {
            stepper.play(policy(b));
        }
        assert_eq!(stepper.record(), Some(whole));
        assert!(whole.moves > 7);
    }
}
