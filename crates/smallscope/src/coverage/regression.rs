//! The curves transcoping extrapolates with, fitted by ordinary least
//! squares (`linregress`).

use linregress::{FormulaRegressionBuilder, RegressionDataBuilder};

/// A family of curves, fitted to `(scope, value)` points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Curve {
    /// `a + b·x`.
    Linear,
    /// `a + b·x + c·x²`.
    Quadratic,
    /// `e^(a + b·x)`, fitted as a line through `(x, ln y)`.
    Exponential,
}

/// A fitted curve: its family and coefficients, lowest power first.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Fit {
    pub curve: Curve,
    pub coefficients: Vec<f64>,
}

/// A fit that could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RegressionError {
    #[error("a {curve:?} fit needs at least {needed} points (got {got})")]
    TooFewPoints { curve: Curve, needed: usize, got: usize },
    #[error("ordinary least squares failed: {0}")]
    Solver(String),
}

/// The smallest value an exponential fit takes the logarithm of: a time
/// measured as zero is a time too short to measure, not an impossible one.
const SMALLEST_POSITIVE: f64 = 1e-6;

impl Fit {
    /// Fits `curve` to `points` by ordinary least squares.
    pub fn new(curve: Curve, points: &[(f64, f64)]) -> Result<Fit, RegressionError> {
        let needed = match curve {
            Curve::Quadratic => 3,
            Curve::Linear | Curve::Exponential => 2,
        };
        if points.len() < needed {
            return Err(RegressionError::TooFewPoints { curve, needed, got: points.len() });
        }
        let x: Vec<f64> = points.iter().map(|p| p.0).collect();
        let y: Vec<f64> = match curve {
            Curve::Exponential => points.iter().map(|p| p.1.max(SMALLEST_POSITIVE).ln()).collect(),
            Curve::Linear | Curve::Quadratic => points.iter().map(|p| p.1).collect(),
        };
        let mut columns = vec![("Y", y), ("X", x.clone())];
        let mut regressors = vec!["X"];
        if curve == Curve::Quadratic {
            columns.push(("X2", x.iter().map(|x| x * x).collect()));
            regressors.push("X2");
        }
        // A constant column leaves the regressors collinear with the
        // intercept, which the pseudo-inverse handles: the fit is flat.
        let data =
            RegressionDataBuilder::new().build_from(columns).map_err(|e| RegressionError::Solver(e.to_string()))?;
        let model = FormulaRegressionBuilder::new()
            .data(&data)
            .data_columns("Y", regressors)
            .fit_without_statistics()
            .map_err(|e| RegressionError::Solver(e.to_string()))?;
        Ok(Fit { curve, coefficients: model })
    }

    /// The curve's value at `x`.
    pub fn at(&self, x: f64) -> f64 {
        let polynomial: f64 = self.coefficients.iter().rev().fold(0.0, |acc, c| acc * x + c);
        match self.curve {
            Curve::Exponential => polynomial.exp(),
            Curve::Linear | Curve::Quadratic => polynomial,
        }
    }
}

/// What a transcoping policy predicts with: one curve, or the average of two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Extrapolation {
    One(Curve),
    Average(Curve, Curve),
}

impl Extrapolation {
    /// The predicted value at `x` from `points`.
    pub fn predict(self, points: &[(f64, f64)], x: f64) -> Result<f64, RegressionError> {
        match self {
            Extrapolation::One(curve) => Ok(Fit::new(curve, points)?.at(x)),
            Extrapolation::Average(a, b) => Ok((Fit::new(a, points)?.at(x) + Fit::new(b, points)?.at(x)) / 2.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(f: impl Fn(f64) -> f64) -> Vec<(f64, f64)> {
        (1..=5).map(|x| (f64::from(x), f(f64::from(x)))).collect()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6 * b.abs().max(1.0)
    }

    /// y = 3 + 2x through exact points: the line comes back, and so does a
    /// quadratic with c = 0. At x = 8: 19.
    #[test]
    fn a_line_through_exact_points_is_recovered() {
        let line = points(|x| 3.0 + 2.0 * x);
        let fit = Fit::new(Curve::Linear, &line).unwrap();
        assert!(close(fit.coefficients[0], 3.0) && close(fit.coefficients[1], 2.0), "{fit:?}");
        assert!(close(fit.at(8.0), 19.0));
        let quadratic = Fit::new(Curve::Quadratic, &line).unwrap();
        assert!(close(quadratic.at(8.0), 19.0), "{quadratic:?}");
        assert!(quadratic.coefficients[2].abs() < 1e-9);
    }

    /// y = x² − x + 1 (1, 3, 7, 13, 21): a = 1, b = −1, c = 1; at x = 8, 57.
    /// The line fitted to it by hand (x̄ = 3, ȳ = 9, Σ(x−x̄)(y−ȳ) = 50,
    /// Σ(x−x̄)² = 10): slope 5, intercept −6, so 34 at x = 8; the average 45.5.
    #[test]
    fn a_quadratic_through_exact_points_is_recovered() {
        let parabola = points(|x| x * x - x + 1.0);
        let fit = Fit::new(Curve::Quadratic, &parabola).unwrap();
        for (got, want) in fit.coefficients.iter().zip([1.0, -1.0, 1.0]) {
            assert!(close(*got, want), "{fit:?}");
        }
        assert!(close(fit.at(8.0), 57.0));
        let line = Fit::new(Curve::Linear, &parabola).unwrap();
        assert!(close(line.coefficients[0], -6.0) && close(line.coefficients[1], 5.0), "{line:?}");
        let average = Extrapolation::Average(Curve::Linear, Curve::Quadratic).predict(&parabola, 8.0).unwrap();
        assert!(close(average, 45.5), "{average}");
    }

    /// y = 2·3^x: ln y = ln 2 + x·ln 3, so at x = 7, 2·3⁷ = 4374.
    #[test]
    fn an_exponential_through_exact_points_is_recovered() {
        let growth = points(|x| 2.0 * 3f64.powf(x));
        let fit = Fit::new(Curve::Exponential, &growth).unwrap();
        assert!(close(fit.coefficients[0], 2f64.ln()) && close(fit.coefficients[1], 3f64.ln()), "{fit:?}");
        assert!(close(fit.at(7.0), 4374.0));
    }

    #[test]
    fn flat_data_and_too_few_points() {
        let flat = points(|_| 4.0);
        assert!(close(Fit::new(Curve::Quadratic, &flat).unwrap().at(9.0), 4.0));
        assert_eq!(
            Fit::new(Curve::Quadratic, &flat[..2]),
            Err(RegressionError::TooFewPoints { curve: Curve::Quadratic, needed: 3, got: 2 })
        );
    }
}
