//! Engine work off the async workers: each request's compiling, replaying and searching runs on
//! the blocking pool (at most [`MAX_JOBS`] at once), within a deadline ([`crate::JOB_DEADLINE`]), and stops when its
//! client goes away.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::StatusCode;

use crate::api::ApiError;
use crate::{Server, MAX_JOBS};

/// What a request may still spend: a deadline, and a flag set when its client has gone.
#[derive(Clone)]
pub struct Budget {
    deadline: Instant,
    limit: Duration,
    cancelled: Arc<AtomicBool>,
    /// Stop flags of searches to set when the client goes.
    stops: Arc<Mutex<Vec<Arc<AtomicBool>>>>,
}

impl Budget {
    /// `Err` once the deadline has passed or the client has gone; checked between moves.
    pub fn check(&self) -> Result<(), ApiError> {
        if self.cancelled.load(Ordering::Relaxed) {
            return Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the request was cancelled"));
        }
        if Instant::now() > self.deadline {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the request took longer than {} s to compile and replay; send fewer moves or a smaller variant",
                    self.limit.as_secs_f64()
                ),
            ));
        }
        Ok(())
    }

    /// Sets `flag` (a search's stop flag) when the client goes away, or now if it has gone.
    pub fn stop_on_cancel(&self, flag: Arc<AtomicBool>) {
        if let Ok(mut stops) = self.stops.lock() {
            stops.push(flag.clone());
        }
        if self.cancelled.load(Ordering::Relaxed) {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

/// Cancels the budget when dropped: axum drops a handler's future when its client disconnects
/// or its time is up, and with it this guard.
struct CancelOnDrop(Budget);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancelled.store(true, Ordering::Relaxed);
        if let Ok(stops) = self.0.stops.lock() {
            for flag in stops.iter() {
                flag.store(true, Ordering::Relaxed);
            }
        }
    }
}

impl Server {
    /// Runs `work` on the blocking pool once one of the [`MAX_JOBS`] turns is free, giving it a
    /// [`Budget`] of the job deadline from now.
    pub(crate) async fn job<T, F>(self: &Arc<Self>, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Server, &Budget) -> Result<T, ApiError> + Send + 'static,
    {
        let budget = Budget {
            deadline: Instant::now() + self.timeouts.job,
            limit: self.timeouts.job,
            cancelled: Arc::new(AtomicBool::new(false)),
            stops: Arc::new(Mutex::new(Vec::new())),
        };
        let _guard = CancelOnDrop(budget.clone());
        let wait = tokio::time::Instant::from_std(budget.deadline);
        let permit = match tokio::time::timeout_at(wait, self.jobs.clone().acquire_owned()).await {
            Ok(Ok(permit)) => permit,
            _ => {
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!("the server is busy: {MAX_JOBS} requests are being worked on; try again"),
                ))
            }
        };
        let server = self.clone();
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            budget.check()?;
            work(&server, &budget)
        });
        match task.await {
            Ok(answer) => answer,
            Err(_) => Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal error: the engine failed on this request",
            )),
        }
    }
}
