import { PortsMemory } from "@svc/adapters-memory"
import { exchangeRatesContract } from "./ExchangeRatesContract.ts"

exchangeRatesContract("memory", PortsMemory)
