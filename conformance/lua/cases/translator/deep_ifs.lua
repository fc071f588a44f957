local x = 0
if x >= 0 then x = x + 1
  if x >= 0 then x = x + 1
    if x >= 0 then x = x + 1
      if x >= 0 then x = x + 1
        if x >= 0 then x = x + 1
          if x >= 0 then x = x + 1
            if x >= 0 then x = x + 1
              if x >= 0 then x = x + 1
                if x >= 0 then x = x + 1
                  if x >= 0 then x = x + 1
                    if x >= 0 then x = x + 1
                      if x >= 0 then x = x + 1
                        if x >= 0 then x = x + 1
                          if x >= 0 then x = x + 1
                            if x >= 0 then x = x + 1
                              if x >= 0 then x = x + 1
                                if x >= 0 then x = x + 1
                                  if x >= 0 then x = x + 1
                                    if x >= 0 then x = x + 1
                                      if x >= 0 then x = x + 1
                                        if x >= 0 then x = x + 1
                                          if x >= 0 then x = x + 1
                                            if x >= 0 then x = x + 1
                                              if x >= 0 then x = x + 1
                                                if x >= 0 then x = x + 1
                                                  if x >= 0 then x = x + 1
                                                    if x >= 0 then x = x + 1
                                                      if x >= 0 then x = x + 1
                                                        if x >= 0 then x = x + 1
                                                          if x >= 0 then x = x + 1
                                                            if x >= 0 then x = x + 1
                                                              if x >= 0 then x = x + 1
                                                                if x >= 0 then x = x + 1
                                                                  if x >= 0 then x = x + 1
                                                                    if x >= 0 then x = x + 1
                                                                      if x >= 0 then x = x + 1
                                                                        if x >= 0 then x = x + 1
                                                                          if x >= 0 then x = x + 1
                                                                            if x >= 0 then x = x + 1
                                                                              if x >= 0 then x = x + 1
                                                                                if x >= 0 then x = x + 1
                                                                                  if x >= 0 then x = x + 1
                                                                                    if x >= 0 then x = x + 1
                                                                                      if x >= 0 then x = x + 1
                                                                                        if x >= 0 then x = x + 1
                                                                                          if x >= 0 then x = x + 1
                                                                                            if x >= 0 then x = x + 1
                                                                                              if x >= 0 then x = x + 1
                                                                                                if x >= 0 then x = x + 1
                                                                                                  if x >= 0 then x = x + 1
                                                                                                    if x >= 0 then x = x + 1
                                                                                                      if x >= 0 then x = x + 1
                                                                                                        if x >= 0 then x = x + 1
                                                                                                          if x >= 0 then x = x + 1
                                                                                                            if x >= 0 then x = x + 1
                                                                                                              if x >= 0 then x = x + 1
                                                                                                                if x >= 0 then x = x + 1
                                                                                                                  if x >= 0 then x = x + 1
                                                                                                                    if x >= 0 then x = x + 1
                                                                                                                      if x >= 0 then x = x + 1
                                                                                                                        if x >= 0 then x = x + 1
                                                                                                                          if x >= 0 then x = x + 1
                                                                                                                            if x >= 0 then x = x + 1
                                                                                                                              if x >= 0 then x = x + 1
                                                                                                                                if x >= 0 then x = x + 1
                                                                                                                                  if x >= 0 then x = x + 1
                                                                                                                                    if x >= 0 then x = x + 1
                                                                                                                                      if x >= 0 then x = x + 1
                                                                                                                                        if x >= 0 then x = x + 1
                                                                                                                                          if x >= 0 then x = x + 1
                                                                                                                                            if x >= 0 then x = x + 1
                                                                                                                                              if x >= 0 then x = x + 1
                                                                                                                                                if x >= 0 then x = x + 1
                                                                                                                                                  if x >= 0 then x = x + 1
                                                                                                                                                    if x >= 0 then x = x + 1
                                                                                                                                                      if x >= 0 then x = x + 1
                                                                                                                                                        if x >= 0 then x = x + 1
                                                                                                                                                          if x >= 0 then x = x + 1
                                                                                                                                                            if x >= 0 then x = x + 1
                                                                                                                                                              if x >= 0 then x = x + 1
                                                                                                                                                                if x >= 0 then x = x + 1
                                                                                                                                                                  if x >= 0 then x = x + 1
                                                                                                                                                                    if x >= 0 then x = x + 1
                                                                                                                                                                      if x >= 0 then x = x + 1
                                                                                                                                                                        if x >= 0 then x = x + 1
                                                                                                                                                                          if x >= 0 then x = x + 1
                                                                                                                                                                            if x >= 0 then x = x + 1
                                                                                                                                                                              if x >= 0 then x = x + 1
                                                                                                                                                                                if x >= 0 then x = x + 1
                                                                                                                                                                                  if x >= 0 then x = x + 1
                                                                                                                                                                                    if x >= 0 then x = x + 1
                                                                                                                                                                                      if x >= 0 then x = x + 1
                                                                                                                                                                                        if x >= 0 then x = x + 1
                                                                                                                                                                                          if x >= 0 then x = x + 1
                                                                                                                                                                                            if x >= 0 then x = x + 1
                                                                                                                                                                                              if x >= 0 then x = x + 1
                                                                                                                                                                                                if x >= 0 then x = x + 1
                                                                                                                                                                                                  if x >= 0 then x = x + 1
                                                                                                                                                                                                    if x >= 0 then x = x + 1
                                                                                                                                                                                                      if x >= 0 then x = x + 1
                                                                                                                                                                                                        if x >= 0 then x = x + 1
                                                                                                                                                                                                          if x >= 0 then x = x + 1
                                                                                                                                                                                                            if x >= 0 then x = x + 1
                                                                                                                                                                                                              if x >= 0 then x = x + 1
                                                                                                                                                                                                                if x >= 0 then x = x + 1
                                                                                                                                                                                                                  if x >= 0 then x = x + 1
                                                                                                                                                                                                                    if x >= 0 then x = x + 1
                                                                                                                                                                                                                      if x >= 0 then x = x + 1
                                                                                                                                                                                                                        if x >= 0 then x = x + 1
                                                                                                                                                                                                                          if x >= 0 then x = x + 1
                                                                                                                                                                                                                            if x >= 0 then x = x + 1
                                                                                                                                                                                                                              if x >= 0 then x = x + 1
                                                                                                                                                                                                                                if x >= 0 then x = x + 1
                                                                                                                                                                                                                                  if x >= 0 then x = x + 1
                                                                                                                                                                                                                                    if x >= 0 then x = x + 1
                                                                                                                                                                                                                                      if x >= 0 then x = x + 1
                                                                                                                                                                                                                                        if x >= 0 then x = x + 1
                                                                                                                                                                                                                                          if x >= 0 then x = x + 1
                                                                                                                                                                                                                                            if x >= 0 then x = x + 1
                                                                                                                                                                                                                                              if x >= 0 then x = x + 1
                                                                                                                                                                                                                                                x = x * 2
                                                                                                                                                                                                                                              end
                                                                                                                                                                                                                                            end
                                                                                                                                                                                                                                          end
                                                                                                                                                                                                                                        end
                                                                                                                                                                                                                                      end
                                                                                                                                                                                                                                    end
                                                                                                                                                                                                                                  end
                                                                                                                                                                                                                                end
                                                                                                                                                                                                                              end
                                                                                                                                                                                                                            end
                                                                                                                                                                                                                          end
                                                                                                                                                                                                                        end
                                                                                                                                                                                                                      end
                                                                                                                                                                                                                    end
                                                                                                                                                                                                                  end
                                                                                                                                                                                                                end
                                                                                                                                                                                                              end
                                                                                                                                                                                                            end
                                                                                                                                                                                                          end
                                                                                                                                                                                                        end
                                                                                                                                                                                                      end
                                                                                                                                                                                                    end
                                                                                                                                                                                                  end
                                                                                                                                                                                                end
                                                                                                                                                                                              end
                                                                                                                                                                                            end
                                                                                                                                                                                          end
                                                                                                                                                                                        end
                                                                                                                                                                                      end
                                                                                                                                                                                    end
                                                                                                                                                                                  end
                                                                                                                                                                                end
                                                                                                                                                                              end
                                                                                                                                                                            end
                                                                                                                                                                          end
                                                                                                                                                                        end
                                                                                                                                                                      end
                                                                                                                                                                    end
                                                                                                                                                                  end
                                                                                                                                                                end
                                                                                                                                                              end
                                                                                                                                                            end
                                                                                                                                                          end
                                                                                                                                                        end
                                                                                                                                                      end
                                                                                                                                                    end
                                                                                                                                                  end
                                                                                                                                                end
                                                                                                                                              end
                                                                                                                                            end
                                                                                                                                          end
                                                                                                                                        end
                                                                                                                                      end
                                                                                                                                    end
                                                                                                                                  end
                                                                                                                                end
                                                                                                                              end
                                                                                                                            end
                                                                                                                          end
                                                                                                                        end
                                                                                                                      end
                                                                                                                    end
                                                                                                                  end
                                                                                                                end
                                                                                                              end
                                                                                                            end
                                                                                                          end
                                                                                                        end
                                                                                                      end
                                                                                                    end
                                                                                                  end
                                                                                                end
                                                                                              end
                                                                                            end
                                                                                          end
                                                                                        end
                                                                                      end
                                                                                    end
                                                                                  end
                                                                                end
                                                                              end
                                                                            end
                                                                          end
                                                                        end
                                                                      end
                                                                    end
                                                                  end
                                                                end
                                                              end
                                                            end
                                                          end
                                                        end
                                                      end
                                                    end
                                                  end
                                                end
                                              end
                                            end
                                          end
                                        end
                                      end
                                    end
                                  end
                                end
                              end
                            end
                          end
                        end
                      end
                    end
                  end
                end
              end
            end
          end
        end
      end
    end
  end
end
print(x)
