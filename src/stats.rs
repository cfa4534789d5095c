//! Batch statistics shared by `sim`, the balance check and `compare`: the Wilson score
//! interval of a win rate.

/// The 95 % Wilson score interval of `successes` out of `n` (z = 1.96): unlike the normal
/// approximation it stays inside [0, 1] and is honest for small `n` and rates near 0 or 1.
pub fn wilson(successes: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (z, n_f) = (1.96f64, f64::from(n));
    let p = f64::from(successes) / n_f;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n_f)) / (1.0 + z2 / n_f);
    let half = z / (1.0 + z2 / n_f) * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}
