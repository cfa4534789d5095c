//! How a decision weighs and chooses among its lines: the race that plays them out pair
//! by pair within the decision's budget, and the choice, given each one's scores pair by
//! pair over the same dice, of the plain line (close and strike) unless another beats it
//! by more than the pairs' spread allows to luck.

/// How much better than closing and striking another line must score, on one pair of
/// playouts, to be chosen (in units standing: a fifth of a unit at full health counts 0.4).
const MARGIN: f64 = 0.3;

/// How much better one candidate did than another over the same dice, pair by pair: the
/// mean gain and its standard error (for one pair, which shows no spread, the margin).
pub(super) struct Gain {
    pub mean: f64,
    pub spread: f64,
}

impl Gain {
    /// The gain less its spread: above nought, a gain luck would rarely give.
    fn lower(&self) -> f64 {
        self.mean - self.spread
    }
}

/// The line chosen, given each candidate's score pair by pair: the plain one unless another
/// beats it over the same dice by more than the pairs' spread allows to luck (the one that
/// beats it by most). In a `large` battle, whose playouts stop short of the end, a line
/// weighed on a single pair (too many lines for more) is not chosen: one pair's luck in a
/// battle of dozens swamps the margin asked of it.
pub(super) fn best_line(pairs_of: &[Vec<f64>], plain: usize, large: bool) -> usize {
    let mut best = (plain, 0.0);
    let weighed = |row: &Vec<f64>| !large || row.len() >= 2;
    for (i, row) in pairs_of.iter().enumerate().filter(|&(i, row)| i != plain && weighed(row)) {
        let gain = paired_gain(row, &pairs_of[plain]);
        if gain.lower() > 0.0 && gain.mean > best.1 {
            best = (i, gain.mean);
        }
    }
    best.0
}

/// What a race among lines may spend.
pub(super) struct Limits {
    /// Antithetic pairs of playouts a line, at most.
    pub pairs: u32,
    /// The cost of all the playouts together (commands, or in a large battle their work),
    /// roughly: after the first pair of each line, as many rounds of pairs as the first
    /// pairs' cost leaves room for.
    pub commands: u32,
    /// Whether the race also stops between rounds once that cost is spent.
    pub stop_when_spent: bool,
}

/// Each line's score of each antithetic pair, and the playouts played.
pub(super) struct Race {
    pub pairs_of: Vec<Vec<f64>>,
    pub played: u32,
}

/// Plays `lines` out pair by pair, `play(line, sample)` giving a playout's score and cost:
/// the first pair of every line shows what a pair costs, and the rest of the budget sets
/// how many rounds of pairs follow. From the third pair a line whose gain over the `plain`
/// one is below nought by twice its standard error drops out (it could not be chosen), and
/// the race ends when none but the plain line is left.
pub(super) fn race(lines: usize, plain: usize, limits: Limits, mut play: impl FnMut(usize, u32) -> (f64, u32)) -> Race {
    let mut pairs_of: Vec<Vec<f64>> = vec![Vec::new(); lines];
    let mut spent = 0;
    for (i, row) in pairs_of.iter_mut().enumerate() {
        let ((a, ca), (b, cb)) = (play(i, 0), play(i, 1));
        row.push((a + b) / 2.0);
        spent += ca + cb;
    }
    let pairs = (limits.commands / spent.max(1)).clamp(1, limits.pairs);
    let mut racing: Vec<bool> = (0..lines).map(|i| i != plain).collect();
    let mut played = 2 * lines as u32;
    for pair in 1..pairs {
        if !racing.iter().any(|&r| r) || (limits.stop_when_spent && spent >= limits.commands) {
            break;
        }
        for i in (0..lines).filter(|&i| i == plain || racing[i]) {
            let ((a, ca), (b, cb)) = (play(i, pair * 2), play(i, pair * 2 + 1));
            pairs_of[i].push((a + b) / 2.0);
            spent += ca + cb;
            played += 2;
        }
        if pair >= 2 {
            for (still, row) in racing.iter_mut().zip(&pairs_of).filter(|(still, _)| **still) {
                let gain = paired_gain(row, &pairs_of[plain]);
                *still = gain.mean + 2.0 * gain.spread >= 0.0;
            }
        }
    }
    Race { pairs_of, played }
}

pub(super) fn paired_gain(ours: &[f64], theirs: &[f64]) -> Gain {
    let gains: Vec<f64> = ours.iter().zip(theirs).map(|(a, b)| a - b).collect();
    let n = gains.len() as f64;
    let mean = gains.iter().sum::<f64>() / n;
    if gains.len() < 2 {
        // One pair gives no spread: only a clear gain counts.
        return Gain { mean, spread: MARGIN };
    }
    let var = gains.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / (n - 1.0);
    Gain { mean, spread: (var / n).sqrt() }
}

#[cfg(test)]
mod tests {
    use super::{Limits, best_line, paired_gain, race};

    /// Three lines whose playouts grow dearer as the race goes on (the first pairs cost 10
    /// a playout, later ones 40): the first pairs' cost allows eight rounds of a budget of
    /// 480, which a small battle plays whole and a large one stops once the budget is
    /// spent; a line far behind drops out after the third pair.
    #[test]
    fn a_large_battles_race_stops_once_its_budget_is_spent() {
        let scores = [1.0, 1.1, -5.0];
        let spent = std::cell::Cell::new(0);
        let play = |line: usize, sample: u32| {
            let cost = if sample < 2 { 10 } else { 40 };
            spent.set(spent.get() + cost);
            (scores[line] + f64::from(sample % 3) * 0.1, cost)
        };
        let limits = |stop_when_spent| Limits { pairs: 12, commands: 480, stop_when_spent };
        let small = race(3, 0, limits(false), play);
        assert_eq!(small.pairs_of[0].len(), 8, "480 / 60 rounds");
        assert_eq!(small.pairs_of[2].len(), 3, "far behind, out after the third pair");
        spent.set(0);
        let large = race(3, 0, limits(true), play);
        let stopped = spent.get();
        assert!((480..480 + 3 * 80).contains(&stopped), "{stopped}: spent, and one round over at most");
        assert!(large.pairs_of[0].len() < small.pairs_of[0].len());
        assert_eq!(large.played, 2 * large.pairs_of.iter().map(Vec::len).sum::<usize>() as u32);
    }

    /// A line far ahead on its one pair is chosen in a small battle (beyond the margin) but
    /// not in a large one; ahead steadily over three pairs, in both.
    #[test]
    fn a_large_battle_chooses_no_line_on_a_single_pair() {
        let one_pair = [vec![1.0], vec![3.0]];
        assert_eq!(best_line(&one_pair, 0, false), 1);
        assert_eq!(best_line(&one_pair, 0, true), 0);
        let steady = [vec![1.0, 2.0, 0.5], vec![1.5, 2.4, 1.1]];
        assert_eq!(best_line(&steady, 0, true), 1);
        assert_eq!(best_line(&steady, 0, false), 1);
    }

    #[test]
    fn a_gain_counts_only_beyond_the_spread_of_the_pairs() {
        // Steadily a fifth of a unit better over the same dice: a gain.
        let steady = paired_gain(&[1.2, 2.2, 0.7, 1.7], &[1.0, 2.0, 0.5, 1.5]);
        assert!((steady.mean - 0.2).abs() < 1e-9 && steady.lower() > 0.0);
        // As much better on average, but all over the place: luck.
        let scattered = paired_gain(&[2.0, 0.0, 2.4, 0.4], &[1.0, 1.0, 1.0, 1.0]);
        assert!((scattered.mean - 0.2).abs() < 1e-9 && scattered.lower() < 0.0);
        // One pair shows no spread: only a gain beyond the margin counts.
        assert!(paired_gain(&[1.2], &[1.0]).lower() < 0.0);
        assert!(paired_gain(&[1.5], &[1.0]).lower() > 0.0);
    }
}
