import { PortsMemory } from "@svc/adapters-memory"
import { cryptoContract } from "./CryptoContract.ts"

cryptoContract("in-memory", PortsMemory)
