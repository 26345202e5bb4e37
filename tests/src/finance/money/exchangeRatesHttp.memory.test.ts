import { PortsMemory } from "@svc/adapters-memory"
import { exchangeRatesHttpSuite } from "./ExchangeRatesHttpSuite.ts"

exchangeRatesHttpSuite("memory", PortsMemory)
