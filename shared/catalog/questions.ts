import type { Caller } from '../core/caller';
import { requireActivity } from './products';
import { toQuestion, type Question } from './model';

export interface ActivityQuestions {
  Activity: { ActivityID: string; ProductID: number; Name: string };
  Questions: Question[];
}

export async function getActivityQuestions(caller: Caller, activityId: string): Promise<ActivityQuestions> {
  const item = await requireActivity(caller, activityId);
  return {
    Activity: { ActivityID: item.ActivityID, ProductID: item.ProductID, Name: item.Name },
    Questions: item.Questions.map(toQuestion),
  };
}
