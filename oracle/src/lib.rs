//! # mtg-oracle
//!
//! A rules-conformance test oracle for searching zones in Magic: The Gathering (Comprehensive
//! Rules 701.23) and the actions around it. For a scenario it knows the *set* of legal outcomes:
//! [`explore`] enumerates it for small states, and [`judge`] decides whether one observed outcome
//! belongs to it without enumerating, by replaying the scenario once.

#![warn(missing_docs)]

pub mod cards;
pub mod check;
pub mod corrupt;
pub mod coverage;
pub mod effects;
pub mod expect;
pub mod explore;
pub mod fuzzing;
pub mod generate;
pub mod judge;
pub mod model;
pub mod mutants;
pub mod observables;
pub mod offers;
pub mod outcome;
pub mod protocol;
pub mod rules;
pub mod runner;
pub mod scenario;
pub mod serve;
pub mod sim;
