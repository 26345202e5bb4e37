import { Config, ConfigProvider, Option, Schema } from "effect"

/*
 * The parsers the configuration modules share: each reads the variable it is given by name, so a bad value names it.
 */

/** A whole number from the environment within `minimum..maximum`, or `fallback`; a bad value names the variable. */
export const wholeNumber = (name: string, fallback: number, minimum: number, maximum = Number.MAX_SAFE_INTEGER) =>
  Config.schema(
    Schema.FiniteFromString.check(
      Schema.isInt(),
      Schema.isBetween(
        { minimum, maximum },
        { message: `${name} must be a whole number from ${minimum} to ${maximum}` }
      )
    ),
    name
  ).pipe(Config.withDefault(fallback))

/** A configuration error naming what is wrong with a value (the message names the variable). */
export const invalid = (message: string) => new Config.ConfigError(new ConfigProvider.SourceError({ message }))

/** A number above zero from the environment, or `fallback`. */
export const positive = (name: string, fallback: number) =>
  Config.schema(Schema.FiniteFromString.check(Schema.isGreaterThan(0)), name).pipe(Config.withDefault(fallback))

/** A URL without its trailing slashes. */
export const withoutTrailingSlash = (url: string) => url.replace(/\/+$/u, "")

/** A whole number above zero from the environment, when set (else the policy's default). */
export const positiveInt = (name: string) =>
  Config.option(Config.Int(name)).pipe(Config.map(Option.filter((n: number) => n > 0)))
