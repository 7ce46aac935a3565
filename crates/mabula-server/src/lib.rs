//! The Mabula web server (work in progress: see the server issue).
