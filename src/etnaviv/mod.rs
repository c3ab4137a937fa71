//! Vivante GC cores (etnaviv): core specs, ISA, simulator and backend.
