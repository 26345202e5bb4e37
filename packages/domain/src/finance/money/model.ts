/** Money and currencies: the currency table, exact amount rules and exchange-rate shapes. No services. */
export * from "./CalendarDate.ts"
export * from "./Currencies.ts"
export * from "./ExchangeRate.ts"
export * from "./MoneyRules.ts"
