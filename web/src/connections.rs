//! The server's open connections: at most [`crate::MAX_CONNECTIONS`]; when all are taken, the one idle longest (waiting for a request) is closed to make room, so that a crowd of idle connections cannot keep light requests out.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::Notify;

/// One open connection: since when it waits for a request (`None` while it answers one), and
/// how to tell it to close.
struct Open {
    idle_since: Option<Instant>,
    close: Arc<Notify>,
}

/// The table of open connections.
pub(crate) struct Connections {
    most: usize,
    table: Mutex<(u64, HashMap<u64, Open>)>,
}

/// A connection's place in the table, given up when dropped.
pub(crate) struct Slot {
    id: u64,
    connections: Arc<Connections>,
    /// Notified when the connection is to close (another needs its place).
    pub close: Arc<Notify>,
}

impl Connections {
    /// A table of at most `most` connections.
    pub fn new(most: usize) -> Connections {
        Connections { most, table: Mutex::new((0, HashMap::new())) }
    }

    /// How many connections are open.
    pub fn open(&self) -> usize {
        self.table.lock().map(|t| t.1.len()).unwrap_or(0)
    }

    /// A place for a new connection. When every place is taken, the connection idle longest is
    /// told to close and its place given; when every connection is answering a request, none.
    pub fn admit(self: &Arc<Self>) -> Option<Slot> {
        let mut guard = self.table.lock().ok()?;
        let (next, table) = &mut *guard;
        if table.len() >= self.most {
            let oldest = table.iter().filter_map(|(id, o)| o.idle_since.map(|t| (t, *id))).min()?.1;
            if let Some(evicted) = table.remove(&oldest) {
                evicted.close.notify_one();
            }
        }
        *next += 1;
        let close = Arc::new(Notify::new());
        table.insert(*next, Open { idle_since: Some(Instant::now()), close: close.clone() });
        Some(Slot { id: *next, connections: self.clone(), close })
    }

    fn set_idle(&self, id: u64, idle: bool) {
        if let Ok(mut t) = self.table.lock() {
            if let Some(o) = t.1.get_mut(&id) {
                o.idle_since = idle.then(Instant::now);
            }
        }
    }
}

impl Slot {
    /// The connection has a request to answer: it may not be closed for another.
    pub fn busy(&self) {
        self.connections.set_idle(self.id, false);
    }

    /// The connection has answered and waits for the next request.
    pub fn idle(&self) {
        self.connections.set_idle(self.id, true);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut t) = self.connections.table.lock() {
            t.1.remove(&self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_idle_longest_makes_room_and_busy_ones_stay() {
        let c = Arc::new(Connections::new(2));
        let a = c.admit().expect("room");
        let b = c.admit().expect("room");
        a.busy();
        // Full: b, the only idle one, is told to close.
        let d = c.admit().expect("b makes room");
        assert_eq!(c.open(), 2);
        d.busy();
        // Both remaining connections answer requests: no room.
        assert!(c.admit().is_none());
        a.idle();
        assert!(c.admit().is_some(), "a is idle again");
        drop(b);
        assert!(c.open() <= 2);
    }
}
