//! Reading Zillions-of-Games rule files: the S-expression reader and macro expansion.
