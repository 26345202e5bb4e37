import { PortsMemory } from "@svc/adapters-memory"
import { transactionsContract } from "./TransactionsContract.ts"

transactionsContract("memory", PortsMemory)
