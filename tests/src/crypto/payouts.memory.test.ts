import { PortsMemory } from "@svc/adapters-memory"
import { payoutsContract } from "./PayoutsContract.ts"

payoutsContract("in-memory", PortsMemory)
