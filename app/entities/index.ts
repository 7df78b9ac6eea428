// Every entity class, listed for MikroORM (no folder discovery).
export const allEntities = [];
