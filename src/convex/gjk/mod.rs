//! GJK distance and EPA penetration depth (being written).
