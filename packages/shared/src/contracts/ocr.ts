/** Route contracts of this feature (see ../contract.ts); each group is an object of contract(...) entries. */
export {};
