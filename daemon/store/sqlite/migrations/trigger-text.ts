/**
 * A trigger's text as an earlier migration created it (`CREATE TRIGGER name …` through its
 * `END;`), for a migration that makes the trigger again with a change. `version` names the
 * migration asking, in the error a missing trigger throws when the migrations load.
 */
export function triggerOf(sql: string, name: string, version: number): string {
  const start = sql.indexOf(`CREATE TRIGGER ${name} `)
  if (start < 0) throw new Error(`Migration ${version} could not find the trigger ${name}.`)
  return sql.slice(start, sql.indexOf('END;', start) + 'END;'.length)
}
