//! How a decision chooses among its lines, given each one's scores pair by pair over the
//! same dice: the plain line (close and strike) unless another beats it by more than the
//! pairs' spread allows to luck.

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
    use super::{best_line, paired_gain};

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
