import { PortsMemory } from "@svc/adapters-memory"
import { merchantsHoursContract } from "./MerchantsHoursContract.ts"

merchantsHoursContract("in-memory", PortsMemory)
