import { PortsMemory } from "@svc/adapters-memory"
import { cryptoHttpSuite } from "./CryptoHttpSuite.ts"

cryptoHttpSuite("memory", PortsMemory)
